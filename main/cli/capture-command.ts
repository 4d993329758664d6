// `callout capture --target BASE_URL [--port N] [--profile NAME]`: runs the capture proxy in the
// foreground (through the handler table: capture.start/stop and the captureUpdated push) and says
// each exchange's verdict as it passes. `callout exchanges [--captured] [--limit N]`: the exchanges
// with each check's verdict, for scripts (--json).
import { Command, Option } from 'commander';
import type { CaptureCheck, CaptureStatus } from '../../common/capture';
import { codedArgs } from '../../common/messages';
import type { ExchangeRecord } from '../../common/records';
import type { CommandContext } from './context';
import { usage } from './io';
import type { CliWords } from './text';

/** What a script reads of an exchange: the request, the reply and, when captured, each check's verdict. */
export function exchangeJson(e: ExchangeRecord) {
  return {
    id: e.id,
    startedAt: new Date(e.startedAt).toISOString(),
    operation: e.operation,
    method: e.method,
    url: e.url,
    status: e.status,
    error: e.error?.kind ?? null,
    profile: e.profile,
    messageId: e.messageId,
    captured: Boolean(e.capture),
    ...(e.capture
      ? {
          mode: e.capture.mode,
          answeredBy: e.capture.answeredBy,
          verdict: e.capture.verdict,
          checks: e.capture.checks.map((c) => ({
            check: c.check,
            verdict: c.verdict,
            code: c.code,
            params: c.params,
            ...(c.issues ? { issues: c.issues } : {}),
            ...(c.causes ? { causes: c.causes.map((x) => x.id) } : {}),
          })),
        }
      : {}),
  };
}

/** One check in words: the check's text, then each broken rule. */
export function checkText(words: CliWords, c: CaptureCheck): string {
  const { t } = words;
  const head = t(...codedArgs('capture.check', c)) as string;
  const issues = (c.issues ?? []).map((i) => t(...codedArgs('capture.rule', i)) as string);
  return words.sentences(head, ...issues);
}

/** One exchange on one line (and, when something is wrong, a line per check that is not a pass). */
export function exchangeLines(words: CliWords, e: ExchangeRecord): string {
  const { t } = words;
  const when = new Date(e.startedAt).toISOString().slice(11, 19);
  const answer = e.status === null ? (e.error?.kind ?? '—') : String(e.status);
  const verdict = e.capture ? t(`capture.verdict.${e.capture.verdict}`) : '';
  const head = `#${e.id}  ${when}  ${verdict.padEnd(8)}  ${e.method} ${e.url}  → ${answer}`;
  if (!e.capture) return head;
  const details = e.capture.checks
    .filter((c) => c.verdict === 'fail' || c.verdict === 'warn')
    .map((c) => `    ${t(`capture.checkName.${c.check}`)}: ${checkText(words, c)}`);
  return [head, ...details].join('\n');
}

const signals = () =>
  new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });

export function registerCaptureCommand(program: Command, ctx: CommandContext): void {
  const { io, session, words, parse, flags, emit } = ctx;
  const { t } = words;

  program
    .command('capture')
    .description(t('cli:help.capture'))
    .requiredOption('--target <url>', t('cli:help.captureTarget'))
    .addOption(new Option('--port <n>', t('cli:help.capturePort')).argParser(parse.int('--port', 0, 65535)))
    .action(async (opts: { target: string; port?: number }) => {
      let target: URL;
      try {
        target = new URL(opts.target);
      } catch {
        throw usage('badBaseUrl', { value: opts.target });
      }
      if (target.protocol !== 'http:' && target.protocol !== 'https:') throw usage('badBaseUrl', { value: opts.target });
      const f = flags();
      // The key to check with: --profile's, or CALLOUT_API_KEY (with CALLOUT_API_ID) as everywhere in the CLI; else none.
      const withKey = f.profile !== undefined || Boolean(io.env.CALLOUT_API_KEY);
      const profileId = withKey ? await session.providerProfile(f.profile !== undefined ? f : { ...f, baseUrl: f.baseUrl ?? opts.target }) : null;
      const json = ctx.json();
      const lines: string[] = [];
      const print = (s: string) => io.stdout(`${s}\n`);
      // Each exchange is said once it is stored, in the order they end.
      let queue = Promise.resolve();
      const off = await session.on('captureUpdated', ({ exchangeId }) => {
        if (exchangeId === null) return;
        queue = queue.then(async () => {
          const e = await session.call('exchanges.get', { id: exchangeId });
          print(json ? JSON.stringify(exchangeJson(e)) : exchangeLines(words, e));
        });
      });
      let status: CaptureStatus;
      try {
        status = await session.call('capture.start', { target: opts.target, port: opts.port, profileId });
      } catch (error) {
        off();
        throw error;
      }
      // With the built-in Sandbox, a backend signs in with the Sandbox's demo account: said here, as `callout sandbox` does.
      const builtin = profileId !== null && (await session.call('profiles.list', undefined)).some((p) => p.id === profileId && p.builtin);
      const demo = builtin ? await session.call('sandbox.demoAccount', undefined) : null;
      if (json) {
        print(
          JSON.stringify({
            url: status.url,
            port: status.port,
            target: status.target,
            profile: profileId,
            key: status.key,
            ...(demo ? { sandboxAccount: demo } : {}),
          }),
        );
      } else {
        lines.push(
          t('cli:capture.listening', { url: status.url, target: status.target }),
          t(status.key === 'none' ? 'cli:capture.noKey' : 'cli:capture.key', { profile: f.profile ?? 'CALLOUT_API_KEY' }),
          ...(demo ? [t('cli:capture.sandboxAccount', { apiId: demo.apiId, apiKey: demo.apiKey })] : []),
          '',
          t('cli:capture.reverse'),
          `  ${status.url}`,
          t('cli:capture.forward'),
          `  HTTP_PROXY=${status.url} HTTPS_PROXY=${status.url}`,
          '',
          t('cli:capture.stop'),
        );
        print(lines.join('\n'));
      }
      try {
        await (io.until ?? signals());
      } finally {
        const stopped = await session.call('capture.stop', undefined);
        await queue;
        off();
        const c = stopped.counts;
        if (json) print(JSON.stringify({ stopped: true, counts: c }));
        else print(t('cli:capture.stopped', { count: c.exchanges, pass: c.pass, warn: c.warn, fail: c.fail, skip: c.skip }));
      }
    });

  program
    .command('exchanges')
    .description(t('cli:help.exchanges'))
    .option('--captured', t('cli:help.captured'))
    .addOption(new Option('--limit <n>', t('cli:help.limit')).argParser(parse.int('--limit', 1, 1000)).default(20))
    .option('--search <words>', t('cli:help.exchangesSearch'))
    .option('--archive <name>', t('cli:help.exchangesArchive'))
    .action(async (opts: { captured?: boolean; limit: number; search?: string; archive?: string }) => {
      const page = await session.call('exchanges.list', {
        ...(opts.captured ? { captured: true } : {}),
        ...(opts.search ? { search: opts.search } : {}),
        ...(opts.archive ? { archive: opts.archive } : {}),
        limit: opts.limit,
      });
      emit(page.rows.map(exchangeJson), () => (page.rows.length ? page.rows.map((e) => exchangeLines(words, e)).join('\n') : t('cli:exchanges.none')));
    });
}
