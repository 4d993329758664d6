import { Command, CommanderError, Option } from 'commander';
import type { FailureView } from '../../common/contract';
import { describeCode, type CodeInfo } from '../../common/domain/codes';
import { CALL_STATES, OUTCOMES, type CallState, type Outcome } from '../../common/domain/status';
import type { MessageRecord } from '../../common/records';
import { formatHttpDate, parseHttpDate, SIGNATURE_VARIANTS, type SignatureVariant } from '../signing';
import { NewerDatabaseError } from '../store/database';
import { CliFailure, EXIT, type CliIo } from './io';
import { registerBulkCommand } from './bulk-command';
import { registerDialCommand } from './dial-command';
import { runSandboxCommand } from './sandbox-command';
import { CliSession, type ProviderFlags } from './session';
import { fillFromVars, VarError } from './template-vars';

const collect = (value: string, previous: string[] = []) => [...previous, value];

function positiveSeconds(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0 || n > 3600) throw new CliFailure(EXIT.usage, 'usage', `${name} must be a number of seconds between 0 and 3600, got "${value}".`);
    return n;
  };
}

function positiveInt(name: string, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1 || n > max) throw new CliFailure(EXIT.usage, 'usage', `${name} must be a whole number from 1 to ${max}, got "${value}".`);
    return n;
  };
}

function oneOf<T extends string>(name: string, allowed: readonly T[]) {
  return (value: string): T => {
    if (!(allowed as readonly string[]).includes(value)) throw new CliFailure(EXIT.usage, 'usage', `${name} must be one of ${allowed.join(', ')}; got "${value}".`);
    return value as T;
  };
}

/** Runs one CLI invocation. Returns the exit code; never throws. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let json = argv.includes('--json');
  let exitCode: number = EXIT.ok;
  const session = new CliSession(io.env);

  const emit = (value: unknown, human: () => string) => {
    if (json) io.stdout(`${JSON.stringify(value)}\n`);
    else io.stdout(`${human()}\n`);
  };
  /** Prints the JSON value of a failed provider call (scripts read it), then fails with one line on stderr. */
  const fail = (value: unknown, failure: CliFailure): never => {
    if (json) io.stdout(`${JSON.stringify(value)}\n`);
    throw Object.assign(failure, { extra: { ...failure.extra, printed: true } });
  };

  const program = new Command('callout')
    .description('Callout: place and follow text-to-speech notification calls, sign and verify requests, run a local sandbox provider.')
    .option('--json', 'print exactly one JSON value on stdout')
    .option('--profile <name>', 'a saved profile (its API Key comes from the OS keychain)')
    .option('--base-url <url>', 'provider base URL (or CALLOUT_BASE_URL)')
    .option('--api-id <id>', 'API ID (or CALLOUT_API_ID); the API Key is read from CALLOUT_API_KEY, never from a flag')
    .addOption(new Option('--sign <variant>', 'add signature headers (Host, Date, Authorization)').argParser(oneOf('--sign', SIGNATURE_VARIANTS)))
    .addOption(new Option('--format <format>', 'reply format to ask for (default json)').argParser(oneOf('--format', ['json', 'xml'] as const)))
    .addOption(new Option('--timeout <seconds>', 'total timeout per request').argParser(positiveSeconds('--timeout')))
    .addOption(new Option('--connect-timeout <seconds>', 'connect timeout per request').argParser(positiveSeconds('--connect-timeout')))
    .showHelpAfterError(false)
    .configureOutput({ writeOut: (s) => io.stdout(s), writeErr: () => undefined })
    .exitOverride();

  const flags = (): ProviderFlags => program.opts<ProviderFlags>();

  const failureFromView = (failure: FailureView, extra: Record<string, unknown> = {}): CliFailure => {
    const exit = failure.kind === 'signature-rejected' ? EXIT.rejected : EXIT.transport;
    const note = failure.outcome === 'unknown' ? ' Not resent: check `callout status` or the history before sending again.' : '';
    return new CliFailure(exit, failure.kind, failure.message + note, { ...extra, outcome: failure.outcome });
  };

  const providerRejection = (code: number | null, info: CodeInfo | null, extra: Record<string, unknown>): CliFailure => {
    const i = info ?? describeCode(code);
    return new CliFailure(EXIT.rejected, 'provider', `The provider answered ${code ?? '(no code)'}: ${i.meaning.en} ${i.action.en}`, { code, ...extra });
  };

  program
    .command('send')
    .description('place a call that reads a text to a mainland mobile number')
    .requiredOption('--to <mobile>', 'mainland mobile number (+86, spaces and dashes are fine)')
    .option('--content <text>', 'the exact text to read (must match an approved template)')
    .option('--template <id>', 'a template from the local library (see `callout template list`)')
    .option('--var <name=value>', 'a template variable by label or position (1, 2, ...); repeatable', collect, [])
    .addOption(new Option('--timeout <seconds>', 'total timeout for this request').argParser(positiveSeconds('--timeout')))
    .action(async (opts: { to: string; content?: string; template?: string; var: string[]; timeout?: number }) => {
      if ((opts.content === undefined) === (opts.template === undefined)) {
        throw new CliFailure(EXIT.usage, 'usage', 'Give either --content TEXT or --template ID (with --var NAME=VALUE), not both and not neither.');
      }
      if (opts.content !== undefined && opts.var.length) throw new CliFailure(EXIT.usage, 'usage', '--var is used with --template, not with --content.');
      let content = opts.content ?? '';
      if (opts.template !== undefined) {
        const template = (await session.call('templates.list', undefined)).find((t) => t.id === opts.template);
        if (!template) throw new CliFailure(EXIT.usage, 'usage', `No template "${opts.template}" in the local library; add it with \`callout template add\`.`);
        content = fillFromVars(template, opts.var);
      }
      const profileId = await session.providerProfile(flags(), opts.timeout);
      const result = await session.call('messages.send', { profileId, mobile: opts.to, content, templateId: opts.template ?? null });
      const m = result.message;
      const base = { messageId: m.id, mobile: m.mobile, units: m.units, outcome: m.outcome };
      if (result.failure) throw failureFromView(result.failure, base);
      const r = { code: m.code, msg: m.providerMsg, smsid: m.smsid, count: m.billedUnits };
      const value = { ...r, ...base };
      if (m.outcome === 'accepted') {
        emit(value, () =>
          [
            `Accepted: smsid ${r.smsid} · ${m.mobile} · ${m.units} unit${m.units === 1 ? '' : 's'} (charged only if answered) · message #${m.id}`,
            `Follow it: callout status ${r.smsid}`,
          ].join('\n'),
        );
        return;
      }
      if (m.outcome === 'unknown') fail(value, new CliFailure(EXIT.transport, 'provider-error', `${m.errorMessage} Not resent: check \`callout history\` before sending again.`));
      fail(value, providerRejection(r.code, result.code, {}));
    });

  program
    .command('status')
    .description("ask the provider for a message's call state and duration")
    .argument('<smsid>', 'the smsid returned by send')
    .action(async (smsid: string) => {
      const profileId = await session.providerProfile(flags());
      const r = await session.call('messages.queryStatus', { profileId, smsid });
      if (r.failure) throw failureFromView(r.failure, { smsid });
      const value = { code: r.providerCode, msg: r.msg, smsid: r.smsid, state: r.state, duration: r.duration, messageId: r.message?.id ?? null, raw: r.raw };
      if (r.providerCode !== 2) fail(value, providerRejection(r.providerCode, r.code, {}));
      const result = r;
      emit(value, () => `${smsid}: ${r.state}${r.duration ? ` · ${r.duration} s` : ''}${result.message ? ` · message #${result.message.id}` : ''}`);
    });

  program
    .command('balance')
    .description('remaining notification units')
    .action(async () => {
      const r = await session.call('balance.query', { profileId: await session.providerProfile(flags()) });
      if (r.failure) throw failureFromView(r.failure);
      const providerCode = r.code?.code ?? null;
      const value = { code: providerCode, msg: typeof r.raw?.msg === 'string' ? r.raw.msg : null, units: r.units, raw: r.raw };
      if (providerCode !== 2) fail(value, providerRejection(providerCode, r.code, {}));
      emit(value, () => (r.units === null ? 'Balance: unknown (the reply has no field Callout recognises; see --json raw)' : `Balance: ${r.units} unit${r.units === 1 ? '' : 's'}`));
    });

  program
    .command('history')
    .description('messages sent from this data directory, newest first')
    .addOption(new Option('--limit <n>', 'how many').argParser(positiveInt('--limit', 10_000)).default(20))
    .option('--mobile <digits>', 'only numbers containing these digits')
    .addOption(new Option('--state <state>', 'only this call state').argParser(oneOf('--state', CALL_STATES)))
    .addOption(new Option('--outcome <outcome>', 'only this outcome').argParser(oneOf('--outcome', OUTCOMES)))
    .action(async (opts: { limit: number; mobile?: string; state?: CallState; outcome?: Outcome }) => {
      const rows = await session.call('history.query', opts);
      const value = rows.map(historyJson);
      emit(value, () => (rows.length ? rows.map(historyLine).join('\n') : 'No messages yet.'));
    });

  program
    .command('sign')
    .description('build the signature headers for a request (spec section 5.2): --api-id ID, key from CALLOUT_API_KEY')
    .requiredOption('--method <method>', 'GET or POST')
    .requiredOption('--url <url>', 'request URL (query is not signed in the spec variant)')
    .option('--date <http-date>', 'Date value to sign (default: now)')
    .addOption(new Option('--variant <variant>', 'string-to-sign variant').argParser(oneOf('--variant', SIGNATURE_VARIANTS)).default('spec'))
    .action(async (opts: { method: string; url: string; date?: string; variant: SignatureVariant }) => {
      const apiId = flags().apiId ?? io.env.CALLOUT_API_ID;
      if (!apiId) throw new CliFailure(EXIT.usage, 'usage', 'No API ID to sign with: pass --api-id ID (or set CALLOUT_API_ID).');
      const apiKey = io.env.CALLOUT_API_KEY;
      if (!apiKey) throw new CliFailure(EXIT.usage, 'usage', 'No API Key: set the environment variable CALLOUT_API_KEY (it is never taken from a flag).');
      const method = checkMethod(opts.method);
      checkUrl(opts.url);
      if (opts.date !== undefined && !parseHttpDate(opts.date)) throw new CliFailure(EXIT.usage, 'usage', `--date must be an HTTP date like "${formatHttpDate(new Date())}", got "${opts.date}".`);
      const steps = await session.call('signature.compute', { apiId, method, url: opts.url, date: opts.date, variant: opts.variant, key: { adHoc: apiKey } });
      const value = { stringToSign: steps.stringToSign, signature: steps.signature, authorization: steps.authorization, headers: steps.headers, variant: steps.variant };
      emit(value, () =>
        [
          `String to sign (${steps.variant}):`,
          ...steps.stringToSign.split('\n').map((l, i, all) => `  ${l}${i < all.length - 1 ? '⏎' : ''}`),
          `Host: ${steps.headers.Host}`,
          `Date: ${steps.headers.Date}`,
          `Authorization: ${steps.headers.Authorization}`,
        ].join('\n'),
      );
    });

  program
    .command('verify')
    .description('check a signed request; exits 0 when valid, 1 when not')
    .requiredOption('--method <method>', 'GET or POST')
    .requiredOption('--url <url>', 'request URL')
    .requiredOption('--date <http-date>', 'the Date header as sent')
    .requiredOption('--authorization <value>', 'the Authorization header as sent')
    .option('--host <host>', 'the Host header as sent (default: from the URL)')
    .option('--now <http-date>', 'compare the date against this time instead of now')
    .addOption(new Option('--variant <variant>', 'string-to-sign variant').argParser(oneOf('--variant', SIGNATURE_VARIANTS)).default('spec'))
    .action(async (opts: { method: string; url: string; date: string; authorization: string; host?: string; now?: string; variant: SignatureVariant }) => {
      const apiKey = io.env.CALLOUT_API_KEY;
      if (!apiKey) throw new CliFailure(EXIT.usage, 'usage', 'No API Key: set the environment variable CALLOUT_API_KEY (it is never taken from a flag).');
      checkUrl(opts.url);
      if (opts.now !== undefined && !parseHttpDate(opts.now)) throw new CliFailure(EXIT.usage, 'usage', `--now must be an HTTP date, got "${opts.now}".`);
      const r = await session.call('signature.verify', { method: checkMethod(opts.method), url: opts.url, host: opts.host, date: opts.date, authorization: opts.authorization, now: opts.now, variant: opts.variant, key: { adHoc: apiKey } });
      const value = { valid: r.valid, reason: r.reason, skewSeconds: r.skewSeconds };
      emit(value, () => (r.valid ? `valid (clock skew ${r.skewSeconds ?? 0} s)` : `invalid: ${r.reason}${r.skewSeconds !== null ? ` (clock skew ${r.skewSeconds} s; the window is ±300 s)` : ''}`));
      if (!r.valid) exitCode = EXIT.invalid;
    });

  const template = program.command('template').description('the local template library (templates are registered in the provider console)');
  template
    .command('add')
    .description('add or replace a template')
    .requiredOption('--content <text>', 'the template text, with 【变量】 markers')
    .option('--id <id>', 'an id of your choice (default: generated)')
    .option('--name <name>', 'a name to show')
    .option('--approved', 'mark it approved by the provider')
    .option('--marker <label>', 'a label for the next 【变量】 marker; repeatable', collect, [])
    .action(async (opts: { content: string; id?: string; name?: string; approved?: boolean; marker: string[] }) => {
      const t = await session.call('templates.save', { id: opts.id, name: opts.name, content: opts.content, approved: opts.approved ?? false, markerNames: opts.marker });
      emit(t, () => `Saved template ${t.id}${t.approved ? ' (approved)' : ' (not yet approved)'}.`);
    });
  template
    .command('list')
    .description('list templates')
    .action(async () => {
      const list = await session.call('templates.list', undefined);
      emit(list, () => (list.length ? list.map((t) => `${t.id}\t${t.approved ? 'approved' : 'pending '}\t${t.content}`).join('\n') : 'No templates yet.'));
    });
  template
    .command('remove')
    .argument('<id>')
    .description('remove a template')
    .action(async (id: string) => {
      if (!(await session.call('templates.remove', { id })).removed) throw new CliFailure(EXIT.usage, 'usage', `No template "${id}".`);
      emit({ removed: id }, () => `Removed template ${id}.`);
    });

  program
    .command('sandbox')
    .description('run the local sandbox provider until interrupted; prints its base URL and demo credentials')
    .addOption(new Option('--port <n>', 'port on 127.0.0.1 (default: random)').argParser(positiveInt('--port', 65535)))
    .addOption(new Option('--time-scale <x>', 'speed of simulated calls (0.1 = ten times faster)').argParser(positiveSeconds('--time-scale')).default(1))
    .addOption(new Option('--signature <mode>', 'require signed requests').argParser(oneOf('--signature', ['off', 'spec', 'apisix', 'any'] as const)).default('off'))
    .action(async (opts: { port?: number; timeScale: number; signature: 'off' | 'spec' | 'apisix' | 'any' }) => {
      await runSandboxCommand(opts, io, json);
    });

  const context = { io, session, flags, json: () => json };
  registerBulkCommand(program, context);
  registerDialCommand(program, context);

  try {
    await program.parseAsync(argv as string[], { from: 'user' });
    return exitCode;
  } catch (error) {
    json = json || globalsSafe(program).json === true;
    return report(error, io, json);
  } finally {
    await session.close();
  }
}

function globalsSafe(program: Command): { json?: boolean } {
  try {
    return program.opts<{ json?: boolean }>();
  } catch {
    return {};
  }
}

function checkMethod(method: string): 'GET' | 'POST' {
  const m = method.toUpperCase();
  if (m !== 'GET' && m !== 'POST') throw new CliFailure(EXIT.usage, 'usage', `--method must be GET or POST, got "${method}".`);
  return m;
}

function checkUrl(url: string): void {
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
  } catch {
    throw new CliFailure(EXIT.usage, 'usage', `--url must be an http(s) URL, got "${url}".`);
  }
}

export function historyJson(m: MessageRecord) {
  return {
    id: m.id,
    mobile: m.mobile,
    content: m.content,
    templateId: m.templateId,
    smsid: m.smsid,
    code: m.code,
    outcome: m.outcome,
    state: m.state,
    duration: m.duration,
    units: m.units,
    profile: m.profile,
    errorKind: m.errorKind,
    createdAt: new Date(m.createdAt).toISOString(),
    endedAt: m.endedAt === null ? null : new Date(m.endedAt).toISOString(),
  };
}

function historyLine(m: MessageRecord): string {
  const when = new Date(m.createdAt).toISOString().replace('T', ' ').slice(0, 19);
  const text = m.content.length > 40 ? `${m.content.slice(0, 39)}…` : m.content;
  return `#${m.id}\t${when}\t${m.mobile}\t${m.outcome}/${m.state}${m.duration ? ` ${m.duration}s` : ''}\t${m.code ?? ''}\t${text}`;
}

function report(error: unknown, io: CliIo, json: boolean): number {
  let failure: CliFailure;
  if (error instanceof CliFailure) failure = error;
  else if (error instanceof CommanderError) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return EXIT.ok;
    failure = new CliFailure(EXIT.usage, 'usage', `${error.message.replace(/^error: /, '')} (see callout --help)`);
  } else if (error instanceof VarError) failure = new CliFailure(EXIT.usage, 'invalid-var', error.message);
  else if (error instanceof NewerDatabaseError) failure = new CliFailure(EXIT.usage, error.code, error.message);
  else failure = new CliFailure(1, 'internal', `Unexpected error: ${error instanceof Error ? error.message : String(error)}`);
  const { printed, ...extra } = failure.extra;
  if (json && !printed) io.stdout(`${JSON.stringify({ error: { kind: failure.kind, message: failure.message, ...extra } })}\n`);
  io.stderr(`callout: ${failure.message.replace(/\s*\n\s*/g, ' ')}\n`);
  return failure.exitCode;
}
