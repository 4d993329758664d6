import { Command, CommanderError, Option } from 'commander';
import { CALL_STATES, OUTCOMES, type CallState, type Outcome } from '../../common/domain/status';
import type { MessageRecord } from '../../common/records';
import { unmappedValue } from '../../common/reasons';
import type { KeyNote } from '../../common/contract/signature';
import { formatHttpDate, parseHttpDate, SIGNATURE_VARIANTS, type SignatureVariant } from '../signing';
import { readFileSync, statSync } from 'node:fs';
import { BUILTIN_DIALECTS, builtinDialect, parseDialectText, type Dialect } from '../../common/dialects';
import { toIpcError } from '../errors';
import { writeCrashLog } from './crash-log';
import { safeHuman, safeJson } from './terminal-text';
import { CliFailure, DEFAULT_WAIT_TIMEOUT_MS, EXIT, failureFromIpc, usage, type CliIo } from './io';
import { durationText, failureOfView, parsers, providerRejection, type CommandContext } from './context';
import { registerArchiveCommand } from './archive-command';
import { registerBulkCommand } from './bulk-command';
import { registerCaptureCommand } from './capture-command';
import { registerDialCommand } from './dial-command';
import { registerPagingCommands } from './paging-command';
import { registerProfileCommand } from './profile-command';
import { registerRunCommand } from './run-command';
import { runSandboxCommand } from './sandbox-command';
import { runUiCommand } from './ui-command';
import { upgradeReport } from './upgrade-report';
import { CliSession, envSigningKey, type ProviderFlags } from './session';
import { fillFromVars } from './template-vars';
import { cliLanguage, cliWords, type CliWords } from './text';
import { usageText } from './usage-errors';
import { localTime } from '../export/table';
import { version } from '../../package.json';

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** Runs one CLI invocation. Returns the exit code; never throws. */
export async function runCli(argv: readonly string[], rawIo: CliIo): Promise<number> {
  let json = argv.includes('--json');
  let exitCode: number = EXIT.ok;
  // Every byte written goes through terminal-text.ts: control characters from the provider (or a
  // file) are shown, never obeyed; JSON stays the same value.
  const io: CliIo = { ...rawIo, stdout: (s) => rawIo.stdout(json ? safeJson(s) : safeHuman(s)), stderr: (s) => rawIo.stderr(safeHuman(s)) };
  const words = cliWords(cliLanguage(argv, io.env));
  const { t } = words;
  const parse = parsers(words);
  const session = new CliSession(io.env, io.clock);
  // A store from an earlier version is upgraded before the first command opens it: said on stderr.
  session.upgrade = upgradeReport({ stderr: io.stderr, live: io.stderrIsTTY && !json, lang: words.lang, clock: session.clock });
  /** In --json, the value with the database's recovery, when there was one (see withRecovery). */
  const jsonOf = (value: unknown) => JSON.stringify(withRecovery(value, session.recovered));

  const program = new Command('callout')
    .description(t('cli:help.program'))
    .version(version, '-V, --version', t('cli:help.version'))
    .option('--json', t('cli:help.json'))
    .addOption(new Option('--lang <lang>', t('cli:help.lang')).argParser(parse.oneOf('--lang', ['zh-CN', 'en'] as const)))
    .option('--profile <name>', t('cli:help.profile'))
    .option('--base-url <url>', t('cli:help.baseUrl'))
    .option('--api-id <id>', t('cli:help.apiId'))
    .addOption(new Option('--sign <variant>', t('cli:help.sign')).argParser(parse.oneOf('--sign', SIGNATURE_VARIANTS)))
    .addOption(new Option('--format <format>', t('cli:help.format')).argParser(parse.oneOf('--format', ['json', 'xml'] as const)))
    .addOption(new Option('--timeout <seconds>', t('cli:help.timeout')).argParser(parse.seconds('--timeout')))
    .addOption(new Option('--connect-timeout <seconds>', t('cli:help.connectTimeout')).argParser(parse.seconds('--connect-timeout')))
    .option('--send-key-unencrypted', t('cli:help.sendKeyUnencrypted'))
    .option('--dialect <id|file>', t('cli:help.dialect'))
    .addHelpText('after', `\n${t('cli:help.exitStatus')}\n`)
    .showHelpAfterError(false)
    .configureOutput({ writeOut: (s) => io.stdout(s), writeErr: () => undefined })
    .exitOverride();

  const ctx: CommandContext = {
    io,
    session,
    flags: () => program.opts<ProviderFlags>(),
    json: () => json,
    words,
    parse,
    emit(value, human) {
      io.stdout(`${json ? jsonOf(value) : human()}\n`);
    },
    printAndFail(value, human, failure) {
      if (json) io.stdout(`${jsonOf(value)}\n`);
      else if (human) io.stdout(`${human()}\n`);
      failure.printed = true;
      throw failure;
    },
  };
  const { emit, printAndFail, flags } = ctx;

  program
    .command('send')
    .description(t('cli:help.send'))
    .requiredOption('--to <mobile>', t('cli:help.to'))
    .option('--content <text>', t('cli:help.content'))
    .option('--template <id>', t('cli:help.template'))
    .option('--var <name=value>', t('cli:help.var'), collect, [])
    .addOption(new Option('--timeout <seconds>', t('cli:help.timeoutOne')).argParser(parse.seconds('--timeout')))
    .option('--wait', t('cli:help.wait'))
    .addOption(new Option('--wait-timeout <duration>', t('cli:help.waitTimeout')).argParser(parse.duration('--wait-timeout')))
    .action(async (opts: { to: string; content?: string; template?: string; var: string[]; timeout?: number; wait?: boolean; waitTimeout?: number }) => {
      const waitMs = opts.waitTimeout ?? DEFAULT_WAIT_TIMEOUT_MS;
      session.waitMs = waitMs;
      if ((opts.content === undefined) === (opts.template === undefined)) throw usage('contentOrTemplate');
      if (opts.content !== undefined && opts.var.length) throw usage('varWithContent');
      let content = opts.content ?? '';
      if (opts.template !== undefined) {
        const template = (await session.call('templates.list', undefined)).find((x) => x.id === opts.template);
        if (!template) throw usage('noTemplate', { id: opts.template });
        content = fillFromVars(template, opts.var);
      }
      const profileId = await session.providerProfile(flags(), opts.timeout);
      const result = await session.call('messages.send', { profileId, mobile: opts.to, content, templateId: opts.template ?? null });
      const m = result.message;
      const base = { messageId: m.id, mobile: m.mobile, units: m.units, outcome: m.outcome };
      if (result.failure) throw failureOfView(words, result.failure, base);
      const value = { code: m.code, msg: m.providerMsg, smsid: m.smsid, count: m.billedUnits, ...base, state: m.state };
      if (m.outcome === 'accepted' && opts.wait) {
        // Follow the call to its end while the CLI runs (the call service follows it; its changes are pushed).
        // A call only the provider's receipts tell about says so while it waits (nothing is asked meanwhile).
        const receiptsOnly = await session.followsByReceiptsOnly(profileId);
        if (!json) io.stdout(`${t('cli:send.accepted', { smsid: m.smsid, mobile: m.mobile, count: m.units, id: m.id })}\n`);
        if (!json && receiptsOnly) io.stdout(`${t('cli:send.waitingReceipt')}\n`);
        const waited = await waitForEnd(session, m.id, waitMs, (s) => {
          if (!json) io.stdout(`${stateLine(words, s)}\n`);
        });
        const ended = waited.message;
        if (waited.gaveUp) {
          // Not heard of its end within the bound: said why, with its own exit status; never resent.
          const said = t('cli:send.gaveUp', { after: durationText(words, waitMs), state: t(`state.${ended.state}`), id: ended.id });
          printAndFail(
            {
              ...value,
              state: ended.state,
              duration: ended.duration,
              endedAt: null,
              unmappedValue: unmappedValue(ended.reason),
              gaveUp: true,
              waitedSeconds: waitMs / 1000,
              ...(receiptsOnly ? { followedBy: 'receipts' } : {}),
            },
            null,
            new CliFailure(EXIT.gaveUp, 'wait-timeout', { key: 'cli:plain', params: { text: said } }, { messageId: ended.id, waitedSeconds: waitMs / 1000 }),
          );
        }
        const final = {
          ...value,
          state: ended.state,
          duration: ended.duration,
          endedAt: ended.endedAt === null ? null : new Date(ended.endedAt).toISOString(),
          reason: ended.reason ? words.reason(ended.reason) : null,
          ...(receiptsOnly ? { followedBy: 'receipts' } : {}),
        };
        emit(final, () => endedLine(words, ended));
        if (ended.state !== 'answered') exitCode = EXIT.invalid;
        return;
      }
      if (m.outcome === 'accepted') {
        // Accepted without a message ID: there is nothing to follow it by (its call ended as unknown).
        const next = m.smsid === null ? words.reason(m.reason) : t('cli:send.follow', { smsid: m.smsid });
        emit(value, () => [t('cli:send.accepted', { smsid: m.smsid ?? '—', mobile: m.mobile, count: m.units, id: m.id }), next].join('\n'));
        return;
      }
      if (m.outcome === 'unknown')
        printAndFail(value, null, new CliFailure(EXIT.transport, 'provider-error', { key: 'cli:notResent', params: { text: words.reason(m.reason) } }));
      // A code word (FailedOperation.InsufficientBalance), or a code the dialect gives a meaning: the
      // provider's code and message, as the dialect reads them.
      const dialectSays = m.reason?.code === 'provider-code' && (m.reason.params.kind === 'dialect' || m.reason.params.kind === 'dialectSaid');
      if (m.reason?.code === 'provider-code' && (m.code === null || dialectSays)) {
        const code = m.reason.params.code;
        printAndFail(
          { ...value, code },
          null,
          new CliFailure(EXIT.rejected, 'provider', { key: 'cli:plain', params: { text: words.reason(m.reason) } }, { code }),
        );
      }
      printAndFail(value, null, providerRejection(words, m.code));
    });

  program
    .command('status')
    .description(t('cli:help.status'))
    .argument('<smsid>', t('cli:help.smsid'))
    .action(async (smsid: string) => {
      const profileId = await session.providerProfile(flags());
      const r = await session.call('messages.queryStatus', { profileId, smsid });
      if (r.failure) throw failureOfView(words, r.failure, { smsid });
      const value = {
        code: r.providerCode,
        msg: r.msg,
        smsid: r.smsid,
        state: r.state,
        value: r.value,
        unmapped: r.unmapped,
        duration: r.duration,
        messageId: r.message?.id ?? null,
        raw: r.raw,
        ...(r.receiptsOnly ? { followedBy: 'receipts' } : {}),
      };
      if (!r.accepted && !r.receiptsOnly) printAndFail(value, null, providerRejection(words, r.providerCode));
      const line = t('cli:status.line', {
        smsid,
        state: t(`state.${r.state}`),
        duration: r.duration ? t('cli:seconds', { n: r.duration }) : '',
        message: r.message ? t('cli:messageRef', { id: r.message.id }) : '',
      });
      // A value the dialect does not map is shown, never guessed; a call only receipts tell about says so.
      emit(value, () =>
        [
          line,
          ...(r.unmapped ? [words.reason({ code: 'unmapped-state', params: { value: r.value ?? '' } })] : []),
          ...(r.receiptsOnly ? [t('cli:status.receiptsOnly')] : []),
        ].join('\n'),
      );
    });

  program
    .command('balance')
    .description(t('cli:help.balance'))
    .action(async () => {
      const r = await session.call('balance.query', { profileId: await session.providerProfile(flags()) });
      if (r.failure) throw failureOfView(words, r.failure);
      const value = { code: r.providerCode, msg: typeof r.raw?.msg === 'string' ? r.raw.msg : null, units: r.units, raw: r.raw };
      if (!r.accepted) printAndFail(value, null, providerRejection(words, r.providerCode));
      emit(value, () => (r.units === null ? t('cli:balance.unknown') : t('cli:balance.units', { count: r.units })));
    });

  program
    .command('history')
    .description(t('cli:help.history'))
    .addOption(new Option('--limit <n>', t('cli:help.limit')).argParser(parse.int('--limit', 1, 1000)).default(20))
    .option('--mobile <digits>', t('cli:help.mobileFilter'))
    .addOption(new Option('--state <state>', t('cli:help.state')).argParser(parse.oneOf('--state', CALL_STATES)))
    .addOption(new Option('--outcome <outcome>', t('cli:help.outcome')).argParser(parse.oneOf('--outcome', OUTCOMES)))
    .option('--refresh', t('cli:help.refresh'))
    .action(async (opts: { limit: number; mobile?: string; state?: CallState; outcome?: Outcome; refresh?: boolean }) => {
      const filter = {
        ...(opts.mobile ? { mobile: opts.mobile } : {}),
        ...(opts.state ? { states: [opts.state] } : {}),
        ...(opts.outcome ? { outcomes: [opts.outcome] } : {}),
      };
      const notRefreshed = new Map<number, string>();
      if (opts.refresh) {
        // Ask the provider about the open calls of this page first. Each message keeps its profile:
        // a saved one (key from the keychain) or the one of the provider flags (CALLOUT_API_KEY).
        const first = await session.call('history.page', { filter, limit: opts.limit });
        const open = first.rows.filter(isOpen);
        if (open.length && (flags().profile !== undefined || flags().baseUrl !== undefined || io.env.CALLOUT_BASE_URL)) await session.providerProfile(flags());
        for (const m of open) {
          try {
            await session.call('messages.refreshStatus', { id: m.id });
          } catch (error) {
            notRefreshed.set(m.id, error instanceof CliFailure ? words.text(error.text) : t('error.internal'));
          }
        }
      }
      const page = await session.call('history.page', { filter, limit: opts.limit });
      const now = session.clock.now();
      emit(
        page.rows.map((m) => ({ ...historyJson(m), ...(notRefreshed.has(m.id) ? { notRefreshed: notRefreshed.get(m.id) } : {}) })),
        () =>
          page.rows.length
            ? [
                ...page.rows.map((m) => historyLine(words, m, now)),
                ...[...notRefreshed].map(([id, why]) => t('cli:history.notRefreshed', { id, why })),
                ...(!opts.refresh && page.rows.some(isOpen) ? [t('cli:history.refreshHint')] : []),
              ].join('\n')
            : t('cli:history.none'),
      );
    });

  program
    .command('sign')
    .description(t('cli:help.signCmd'))
    .requiredOption('--method <method>', t('cli:help.method'))
    .requiredOption('--url <url>', t('cli:help.url'))
    .option('--date <http-date>', t('cli:help.date'))
    .addOption(new Option('--variant <variant>', t('cli:help.variant')).argParser(parse.oneOf('--variant', SIGNATURE_VARIANTS)).default('spec'))
    .action(async (opts: { method: string; url: string; date?: string; variant: SignatureVariant }) => {
      const apiId = flags().apiId ?? io.env.CALLOUT_API_ID;
      if (!apiId) throw usage('noApiIdToSign');
      const apiKey = envSigningKey(io.env);
      const method = checkMethod(opts.method);
      checkUrl(opts.url);
      if (opts.date !== undefined && !parseHttpDate(opts.date))
        throw usage('badDate', { flag: '--date', example: formatHttpDate(session.clock.date()), value: opts.date });
      const steps = await session.call('signature.compute', { apiId, method, url: opts.url, date: opts.date, variant: opts.variant, key: { adHoc: apiKey } });
      const note = keyNoteText(words, steps.keyNote);
      const value = {
        stringToSign: steps.stringToSign,
        signature: steps.signature,
        authorization: steps.authorization,
        headers: steps.headers,
        variant: steps.variant,
        ...(note ? { keyNote: note } : {}),
      };
      if (note && !json) io.stderr(`callout: ${note}\n`);
      emit(value, () =>
        [
          t('cli:sign.stringToSign', { variant: steps.variant }),
          ...steps.stringToSign.split('\n').map((l, i, all) => `  ${l}${i < all.length - 1 ? '⏎' : ''}`),
          `Host: ${steps.headers.Host}`,
          `Date: ${steps.headers.Date}`,
          `Authorization: ${steps.headers.Authorization}`,
        ].join('\n'),
      );
    });

  program
    .command('verify')
    .description(t('cli:help.verify'))
    .requiredOption('--method <method>', t('cli:help.method'))
    .requiredOption('--url <url>', t('cli:help.url'))
    .requiredOption('--date <http-date>', t('cli:help.dateSent'))
    .requiredOption('--authorization <value>', t('cli:help.authorization'))
    .option('--host <host>', t('cli:help.host'))
    .option('--now <http-date>', t('cli:help.now'))
    .addOption(new Option('--variant <variant>', t('cli:help.variant')).argParser(parse.oneOf('--variant', SIGNATURE_VARIANTS)).default('spec'))
    .action(async (opts: { method: string; url: string; date: string; authorization: string; host?: string; now?: string; variant: SignatureVariant }) => {
      // The API ID the header must be signed for (a gateway refuses another keyId): --api-id, the profile's, or CALLOUT_API_ID.
      const expectedApiId = flags().apiId ?? (flags().profile !== undefined ? await profileApiId(session, flags().profile!) : io.env.CALLOUT_API_ID);
      if (!expectedApiId) throw usage('noApiIdToVerify');
      const apiKey = envSigningKey(io.env);
      checkUrl(opts.url);
      if (opts.now !== undefined && !parseHttpDate(opts.now))
        throw usage('badDate', { flag: '--now', example: formatHttpDate(session.clock.date()), value: opts.now });
      const r = await session.call('signature.verify', {
        method: checkMethod(opts.method),
        url: opts.url,
        host: opts.host,
        date: opts.date,
        authorization: opts.authorization,
        now: opts.now,
        variant: opts.variant,
        key: { adHoc: apiKey },
        expectedApiId,
      });
      const note = keyNoteText(words, r.keyNote);
      const why = r.reason === null ? null : t(`signature.verdict.${r.reason}`, { keyId: r.keyId ?? '', apiId: expectedApiId, context: 'detailed' });
      const value = {
        valid: r.valid,
        reason: r.reason,
        message: why,
        keyId: r.keyId,
        expectedApiId,
        skewSeconds: r.skewSeconds,
        ...(note ? { keyNote: note } : {}),
      };
      if (note && !json) io.stderr(`callout: ${note}\n`);
      emit(value, () =>
        r.valid
          ? t('cli:verify.valid', { skew: r.skewSeconds ?? 0 })
          : t('cli:verify.invalid', { reason: why, skew: r.skewSeconds === null ? '' : t('cli:verify.skew', { skew: r.skewSeconds }) }),
      );
      if (!r.valid) exitCode = EXIT.invalid;
    });

  const template = program.command('template').description(t('cli:help.templateGroup'));
  template
    .command('add')
    .description(t('cli:help.templateAdd'))
    .requiredOption('--content <text>', t('cli:help.templateContent'))
    .option('--id <id>', t('cli:help.templateId'))
    .option('--name <name>', t('cli:help.templateName'))
    .option('--approved', t('cli:help.approved'))
    .option('--marker <label>', t('cli:help.marker'), collect, [])
    .action(async (opts: { content: string; id?: string; name?: string; approved?: boolean; marker: string[] }) => {
      const saved = await session.call('templates.save', {
        id: opts.id,
        name: opts.name,
        content: opts.content,
        approved: opts.approved ?? false,
        markerNames: opts.marker,
      });
      emit(saved, () => t(saved.approved ? 'cli:template.savedApproved' : 'cli:template.savedPending', { id: saved.id }));
    });
  template
    .command('list')
    .description(t('cli:help.templateList'))
    .action(async () => {
      const list = await session.call('templates.list', undefined);
      emit(list, () =>
        list.length
          ? list.map((x) => `${x.id}\t${t(x.approved ? 'cli:template.approved' : 'cli:template.pending')}\t${x.content}`).join('\n')
          : t('cli:template.none'),
      );
    });
  template
    .command('remove')
    .argument('<id>')
    .description(t('cli:help.templateRemove'))
    .action(async (id: string) => {
      if (!(await session.call('templates.remove', { id })).removed) throw usage('noTemplate', { id });
      emit({ removed: id }, () => t('cli:template.removed', { id }));
    });

  program
    .command('sandbox')
    .description(t('cli:help.sandbox'))
    .addOption(new Option('--port <n>', t('cli:help.port')).argParser(parse.int('--port', 1, 65535)))
    .addOption(new Option('--time-scale <x>', t('cli:help.timeScale')).argParser(parse.seconds('--time-scale')).default(1))
    .addOption(
      new Option('--signature <mode>', t('cli:help.signature')).argParser(parse.oneOf('--signature', ['off', 'spec', 'apisix', 'any'] as const)).default('off'),
    )
    .option('--receipts-to <url>', t('cli:help.receiptsTo'))
    .action(async (opts: { port?: number; timeScale: number; signature: 'off' | 'spec' | 'apisix' | 'any'; receiptsTo?: string }) => {
      const dialect = flags().dialect === undefined ? undefined : sandboxDialect(flags().dialect!);
      if (opts.receiptsTo !== undefined) checkUrl(opts.receiptsTo, '--receipts-to');
      await runSandboxCommand({ ...opts, dialect }, io, json, words);
    });

  program
    .command('ui')
    .description(t('cli:help.ui'))
    .addOption(new Option('--port <n>', t('cli:help.uiPort')).argParser(parse.int('--port', 0, 65535)))
    .option('--host <address>', t('cli:help.uiHost'))
    .option('--no-open', t('cli:help.noOpen'))
    .action(async (opts: { port?: number; host?: string; open: boolean }) => {
      await runUiCommand(opts, io, json, words);
    });

  registerBulkCommand(program, ctx);
  registerArchiveCommand(program, ctx);
  registerDialCommand(program, ctx);
  registerProfileCommand(program, ctx);
  registerRunCommand(program, ctx);
  registerCaptureCommand(program, ctx);
  registerPagingCommands(program, ctx);

  try {
    await program.parseAsync(argv as string[], { from: 'user' });
    return exitCode;
  } catch (error) {
    json = json || globalsSafe(program).json === true;
    return report(error, io, json, words, { argv, jsonOf, internal: session.lastInternalError });
  } finally {
    await session.close().catch(() => undefined);
    // A damaged database set aside at open is said on stderr in both modes (and in the JSON value).
    const recovered = session.recovered;
    if (recovered) io.stderr(`callout: ${t(recovered.kind === 'wal' ? 'cli:walRecovered' : 'cli:databaseRecovered', { movedTo: recovered.movedTo })}\n`);
  }
}

/**
 * The --json value when the database was found damaged at open and set aside: an object gets a
 * `databaseRecovered` key; any other value (the arrays of `history`, `template list`) is wrapped as
 * `{"databaseRecovered": ..., "result": value}`, so that a script never reads an empty history as
 * "nothing was sent" without being told.
 */
export function withRecovery(value: unknown, recovered: { movedTo: string; reason: string; kind?: string } | null): unknown {
  if (!recovered) return value;
  const said = { movedTo: recovered.movedTo, reason: recovered.reason, kind: recovered.kind ?? 'database' };
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return { ...value, databaseRecovered: said };
  return { databaseRecovered: said, result: value };
}

function globalsSafe(program: Command): { json?: boolean } {
  try {
    return program.opts<{ json?: boolean }>();
  } catch {
    return {};
  }
}

/** What a typed key Callout would not store is, in words (null for one it would). */
function keyNoteText(words: CliWords, note: KeyNote): string | null {
  return note === null ? null : words.t(`cli:keyNotStored.${note}`);
}

/** A saved profile's API ID, by name or id (verify's expected keyId). */
async function profileApiId(session: CliSession, name: string): Promise<string> {
  const list = await session.call('profiles.list', undefined);
  const p = list.find((x) => x.name === name) ?? list.find((x) => x.id === name);
  if (!p) throw usage('noProfile', { name, names: list.map((x) => x.name).join(', ') || '—' }, 'not-found');
  return p.apiId;
}

function checkMethod(method: string): 'GET' | 'POST' {
  const m = method.toUpperCase();
  if (m !== 'GET' && m !== 'POST') throw usage('badMethod', { value: method });
  return m;
}

function checkUrl(url: string, flag = '--url'): void {
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
  } catch {
    throw usage('badUrl', { value: url, flag });
  }
}

/** The sandbox's dialect: a built-in one's id, or a dialect file (checked here: the sandbox runs without the app's services). */
function sandboxDialect(value: string): Dialect {
  const builtin = builtinDialect(value);
  if (builtin) return builtin;
  let text: string;
  try {
    if (statSync(value).size > 1024 * 1024) throw usage('dialectTooLarge', { value });
    text = readFileSync(value, 'utf8');
  } catch (error) {
    if (error instanceof CliFailure) throw error;
    throw usage('dialectNotFound', { value, ids: BUILTIN_DIALECTS.map((d) => d.id).join(', ') });
  }
  const r = parseDialectText(text);
  if (!r.ok) throw failureFromIpc({ code: 'dialect-invalid', params: {}, issues: r.issues });
  return r.dialect;
}

/** A call still going on as far as Callout knows: accepted, not ended. */
function isOpen(m: MessageRecord): boolean {
  return m.outcome === 'accepted' && m.endedAt === null;
}

/** Local time of day, HH:MM:SS. */
function clock(ms: number): string {
  return localTime(ms).slice(11);
}

/**
 * Resolves with the message once its call ended (or following it stopped), or as it stands after
 * `waitMs` (gaveUp); tells each change as it is pushed. The wait itself is the call service's
 * (session.awaitEnd), which keeps the process up: a subscription to pushed events alone does not,
 * and the CLI exited before the call ended.
 */
async function waitForEnd(
  session: CliSession,
  id: number,
  waitMs: number,
  onChange: (m: MessageRecord) => void,
): Promise<{ message: MessageRecord; gaveUp: boolean }> {
  let last = (await session.call('messages.get', { id })).message;
  const off = await session.on('messageUpdated', (m) => {
    if (m.id !== id) return;
    // A new state, or a value the dialect does not map arriving (said once per value).
    const value = unmappedValue(m.reason);
    if (m.state !== last.state || (value !== null && value !== unmappedValue(last.reason))) onChange(m);
    last = m;
  });
  // Bounded (--wait-timeout), on the session's clock.
  const stop = new AbortController();
  const timer = session.clock.setTimeout(() => stop.abort(), waitMs);
  try {
    return { message: await session.awaitEnd(id, stop.signal), gaveUp: false };
  } catch (error) {
    if (!stop.signal.aborted) throw error;
    return { message: (await session.call('messages.get', { id })).message, gaveUp: true };
  } finally {
    timer.cancel();
    off();
  }
}

/** A followed call's new state, with the provider's value when the dialect does not map it. */
function stateLine(words: CliWords, m: MessageRecord): string {
  const { t } = words;
  const value = unmappedValue(m.reason);
  const said = { state: t(`state.${m.state}`), time: clock(m.updatedAt) };
  return value === null ? t('cli:send.state', said) : t('cli:send.stateUnmapped', { ...said, value });
}

/** How a followed call ended, in words. */
function endedLine(words: CliWords, m: MessageRecord): string {
  const { t } = words;
  const state = t(`state.${m.state}`);
  if (m.state === 'answered') return t('cli:send.answered', { duration: m.duration ?? 0, id: m.id });
  return words.sentences(t('cli:send.ended', { state, id: m.id }), m.reason ? words.reason(m.reason) : '');
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
    /** When the state shown was last recorded (for a call still going on: since when it is so). */
    stateSince: new Date(m.updatedAt).toISOString(),
    open: isOpen(m),
    /** The provider's state value the profile's dialect does not map (then `state` is unknown), else null. */
    unmappedValue: unmappedValue(m.reason),
  };
}

function historyLine(words: CliWords, m: MessageRecord, now: number): string {
  const when = localTime(m.createdAt);
  const text = [...m.content].length > 40 ? `${[...m.content].slice(0, 39).join('')}…` : m.content;
  const { t } = words;
  const minutes = Math.floor((now - m.updatedAt) / 60_000);
  // A call still going on says since when Callout knows it so (it may have ended since).
  const since = isOpen(m)
    ? ` ${t('cli:history.since', { time: clock(m.updatedAt), ago: minutes < 1 ? t('cli:history.justNow') : t('cli:history.minutesAgo', { count: minutes }) })}`
    : '';
  const value = unmappedValue(m.reason);
  const unmapped = value === null ? '' : t('cli:unmappedNote', { value });
  return `#${m.id}\t${when}\t${m.mobile}\t${t(`csv.outcome.${m.outcome}`)}/${t(`state.${m.state}`)}${unmapped}${m.duration ? ` ${t('cli:seconds', { n: m.duration })}` : ''}${since}\t${m.code ?? ''}\t${text}`;
}

function report(
  error: unknown,
  io: CliIo,
  json: boolean,
  words: CliWords,
  o: { argv: readonly string[]; jsonOf: (value: unknown) => string; internal: unknown },
): number {
  let failure: CliFailure;
  if (error instanceof CliFailure) failure = error;
  else if (error instanceof CommanderError) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return EXIT.ok;
    const said = usageText(error, words.lang);
    const text = said ? (words.t(said.key, said.params) as string) : error.message.replace(/^error: /, '');
    failure = new CliFailure(EXIT.usage, 'usage', { key: 'cli:commander', params: { text } });
  } else {
    // One of main's coded errors met outside the handler table (opening the store on a full disk...), or a crash.
    const coded = toIpcError(error);
    failure = coded.code === 'internal' ? new CliFailure(EXIT.internal, 'internal', { error: coded }) : failureFromIpc(coded);
  }
  if (failure.kind === 'internal') {
    // Never a stack trace: one line, and the details in a log file of the data directory.
    const log = writeCrashLog(io.env, o.argv, o.internal ?? error);
    failure = new CliFailure(
      failure.exitCode,
      'internal',
      { key: log ? 'cli:internal' : 'cli:internalNoLog', params: { path: log ?? '' } },
      { ...failure.extra, ...(log ? { log } : {}) },
    );
  }
  const message = words.text(failure.text).replace(/\s*\n\s*/g, ' ');
  if (json && !failure.printed) io.stdout(`${o.jsonOf({ error: { kind: failure.kind, message, ...failure.extra } })}\n`);
  io.stderr(`callout: ${message}\n`);
  return failure.exitCode;
}

/**
 * The last resort for what escapes runCli (an error thrown from a timer or a stream): one line and
 * the log file, never Node's stack trace. Installed by the `callout` entry point.
 */
export function reportCrash(error: unknown, argv: readonly string[], io: CliIo): void {
  const words = cliWords(cliLanguage(argv, io.env));
  const log = writeCrashLog(io.env, argv, error);
  io.stderr(`callout: ${safeHuman(words.t(log ? 'cli:internal' : 'cli:internalNoLog', { path: log ?? '' }))}\n`);
}
