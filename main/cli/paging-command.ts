// Paging on the command line (issue 25, item 8): `callout page serve` runs intake, escalations and
// following headless (a server without a desktop), `callout page test` sends a test alert,
// `callout oncall now` says who is on call, `callout incidents ...` lists, shows, acknowledges,
// resolves and exports incidents. Everything goes through the handler table (session.call).
import { writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { Command, Option } from 'commander';
import type { IncidentCallRecord, IncidentDetail, IncidentRecord } from '../../common/paging/records';
import { parseAlertPost } from '../../common/paging/intake';
import { nextShift, onCallAt } from '../../common/paging/schedule';
import { offsetAt } from '../../common/paging/zoned';
import type { Schedule } from '../../common/paging/types';
import { localTime } from '../export/table';
import type { CommandContext } from './context';
import type { InputOf } from '../../common/contract';
import { CliFailure, usage } from './io';
import { readInput } from './input';
import type { CliWords } from './text';

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** Who acknowledges or resolves when --by is not given: the user running the command. */
function defaultBy(env: NodeJS.ProcessEnv): string {
  try {
    return env.USER || env.USERNAME || userInfo().username || 'callout';
  } catch {
    return 'callout';
  }
}

const signals = () =>
  new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });

function incidentId(value: string): number {
  const n = Number(value.replace(/^#/, ''));
  if (!Number.isInteger(n) || n <= 0) throw usage('badIncident', { value });
  return n;
}

export function incidentJson(i: IncidentRecord) {
  const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
  return { ...i, openedAt: iso(i.openedAt), updatedAt: iso(i.updatedAt), acknowledgedAt: iso(i.acknowledgedAt), resolvedAt: iso(i.resolvedAt) };
}

/** One incident as a line: #id, when, state, severity, title. */
function incidentLine(words: CliWords, i: IncidentRecord): string {
  const { t } = words;
  const state = t(`cli:incidents.state.${i.state}`);
  const by = i.state === 'acknowledged' ? i.acknowledgedBy : i.state === 'resolved' ? i.resolvedBy : null;
  const who = by ? t('cli:incidents.by', { name: by }) : '';
  return `#${i.id}\t${localTime(i.openedAt)}\t${state}${who}\t${i.severity ?? '—'}\t${i.title}`;
}

function callLine(words: CliWords, c: IncidentCallRecord): string {
  const { t } = words;
  const result = c.result ? t(`paging.result.${c.result}`) : t('cli:incidents.calling');
  const who = c.name ? `${c.name} ${c.mobile}` : c.mobile;
  const duration = c.duration ? ` ${t('cli:seconds', { n: c.duration })}` : '';
  const why = c.reason ? ` ${words.reason(c.reason)}` : '';
  const step = c.resolution ? t('paging.resolutionCall') : t('cli:incidents.stepAttempt', { step: c.stepIndex + 1, attempt: c.attempt });
  return `  ${localTime(c.startedAt)}\t${step}\t${who}\t${result}${duration}\t${c.smsid ?? ''}${why}`;
}

function detailText(words: CliWords, d: IncidentDetail): string {
  const { t } = words;
  const lines = [incidentLine(words, d.incident), t('cli:incidents.alerts', { count: d.alerts.length })];
  for (const s of d.steps) if (s.lateMs > 0) lines.push(`  ${t('paging.late', { minutes: Math.round(s.lateMs / 60_000) })}`);
  lines.push(...(d.calls.length ? d.calls.map((c) => callLine(words, c)) : [`  ${t('cli:incidents.noCalls')}`]));
  if (d.nextAt !== null) lines.push(t('cli:incidents.next', { time: localTime(d.nextAt) }));
  if (d.incident.ended) lines.push(t(`cli:incidents.ended.${d.incident.ended}`));
  if (d.incident.resolutionCall) lines.push(t(`paging.resolution.${d.incident.resolutionCall}`));
  return lines.join('\n');
}

/** What `page serve` says about an incident's changes: a line per new state and per call placed or ended. */
class ServeLog {
  private readonly seen = new Map<number, { state: string; ended: string | null; calls: Map<number, string | null> }>();

  constructor(
    private readonly words: CliWords,
    private readonly write: (line: string) => void,
    private readonly since: number,
  ) {}

  note(d: IncidentDetail): void {
    const { t } = this.words;
    const i = d.incident;
    let known = this.seen.get(i.id);
    const at = (ms: number) => localTime(ms);
    if (!known) {
      known = { state: '', ended: null, calls: new Map() };
      this.seen.set(i.id, known);
      if (i.openedAt >= this.since)
        this.write(`${at(i.openedAt)} ${t('cli:serve.opened', { id: i.id, title: i.title, severity: i.severity ?? '—', source: i.source })}`);
      known.state = i.state === 'triggered' ? 'triggered' : '';
    }
    if (i.state !== known.state) {
      known.state = i.state;
      const who = i.state === 'acknowledged' ? i.acknowledgedBy : i.state === 'resolved' ? i.resolvedBy : null;
      this.write(`${at(i.updatedAt)} ${t(`cli:serve.${i.state}`, { id: i.id, by: who ?? t('cli:serve.theAlert') })}`);
    }
    for (const c of d.calls) {
      const had = known.calls.get(c.id);
      const who = c.name ? `${c.name} ${c.mobile}` : c.mobile;
      if (had === undefined) {
        known.calls.set(c.id, null);
        if (c.result !== 'refused')
          this.write(
            `${at(c.startedAt)} ${t(c.resolution ? 'cli:serve.resolutionCall' : 'cli:serve.call', { id: i.id, who, step: c.stepIndex + 1, attempt: c.attempt, smsid: c.smsid ?? '—' })}`,
          );
      }
      if (c.result !== null && known.calls.get(c.id) !== c.result) {
        known.calls.set(c.id, c.result);
        const detail = [c.duration ? t('cli:seconds', { n: c.duration }) : '', c.reason ? this.words.reason(c.reason) : ''].filter(Boolean).join(' ');
        this.write(`${at(c.endedAt ?? c.startedAt)} ${t('cli:serve.result', { id: i.id, who, result: t(`paging.result.${c.result}`), detail })}`.trimEnd());
      }
    }
    if (i.ended && i.ended !== known.ended) {
      known.ended = i.ended;
      this.write(`${at(i.updatedAt)} ${t('cli:serve.ended', { id: i.id, how: t(`cli:incidents.ended.${i.ended}`) })}`);
    }
  }
}

/** An unreadable paste: the catalog's sentence, then where the intake found the problem and what it is. */
function alertInvalid(words: CliWords, error: unknown): unknown {
  if (!(error instanceof CliFailure) || !('error' in error.text)) return error;
  const e = error.text.error;
  if (e.code !== 'paging' || e.params.kind !== 'alert-invalid' || !e.params.problem) return error;
  const detail = words.t(`paging.intake.${e.params.problem}`, { field: e.params.field, limit: e.params.limit });
  return new CliFailure(
    error.exitCode,
    error.kind,
    { key: 'cli:pagePaste.invalid', params: { head: words.error(e), field: e.params.field, detail } },
    { field: e.params.field, problem: e.params.problem },
  );
}

interface ReceiverFlags {
  /** true: read it (env, then standard input or a hidden prompt); false: --no-token. */
  token?: string | boolean;
  basic?: string | false;
  auth?: boolean;
  host?: string;
  port?: number;
  enable?: boolean;
  disable?: boolean;
  newSecret?: boolean;
}

/** Where a secret not given on the command line comes from: this variable, else standard input or a prompt that does not echo. */
export const RECEIVER_TOKEN_ENV = 'CALLOUT_RECEIVER_TOKEN';
export const RECEIVER_PASSWORD_ENV = 'CALLOUT_RECEIVER_PASSWORD';

/**
 * What `page receiver`'s flags change (null: nothing, the settings are only shown). A secret read
 * here goes to main once (paging.receiverSave keeps it in the keychain) and is never printed.
 */
async function receiverChange(ctx: CommandContext, o: ReceiverFlags): Promise<Omit<InputOf<'paging.receiverSave'>, 'host' | 'port'> | null> {
  const { t } = ctx.words;
  if (o.enable && o.disable) throw usage('enableOrDisable');
  const removeAll = o.auth === false;
  if (removeAll && (typeof o.token === 'string' || o.token === true || typeof o.basic === 'string')) throw usage('authAndNoAuth');
  let reads = 0;
  const read = async (envName: string, prompt: string): Promise<string> => {
    const fromEnv = ctx.io.env[envName];
    if (fromEnv !== undefined && fromEnv.trim() !== '') return fromEnv;
    if (++reads > 1) throw usage('oneSecretInput', { env: envName });
    if (!ctx.io.readSecret) throw usage('noSecretInput', { env: envName });
    const value = await ctx.io.readSecret(prompt);
    if (value === null || value.trim() === '') throw usage('emptySecret', { env: envName });
    return value;
  };
  const change: Omit<InputOf<'paging.receiverSave'>, 'host' | 'port'> = { enabled: false };
  let changed = o.host !== undefined || o.port !== undefined || Boolean(o.enable || o.disable || o.newSecret);
  if (removeAll || o.token === false) change.bearer = null;
  else if (typeof o.token === 'string') change.bearer = o.token;
  else if (o.token === true) change.bearer = await read(RECEIVER_TOKEN_ENV, t('cli:receiver.tokenPrompt'));
  if (removeAll || o.basic === false) change.basic = null;
  else if (typeof o.basic === 'string') {
    const at = o.basic.indexOf(':');
    const username = at < 0 ? o.basic : o.basic.slice(0, at);
    if (username === '') throw usage('badBasic');
    const password = at < 0 ? await read(RECEIVER_PASSWORD_ENV, t('cli:receiver.passwordPrompt', { user: username })) : o.basic.slice(at + 1);
    change.basic = { username, password };
  }
  changed ||= change.bearer !== undefined || change.basic !== undefined;
  if (!changed) return null;
  // Without a keychain, main refuses to keep a token or password (paging.receiverSave): said, nothing kept.
  const current = await ctx.session.call('paging.receiverStatus', undefined);
  change.enabled = o.enable ? true : o.disable ? false : current.enabled;
  if (o.newSecret) change.newSecret = true;
  return change;
}

export function registerPagingCommands(program: Command, ctx: CommandContext): void {
  const { io, session, words, parse, emit } = ctx;
  const { t } = words;

  const page = program.command('page').description(t('cli:help.page'));
  page
    .command('serve')
    .description(t('cli:help.pageServe'))
    .option('--host <address>', t('cli:help.receiverHost'))
    .addOption(new Option('--port <n>', t('cli:help.receiverPort')).argParser(parse.int('--port', 0, 65535)))
    .action(async (opts: { host?: string; port?: number }) => {
      session.serving = true;
      session.log = (error) => io.stderr(`callout page serve: ${error instanceof Error ? error.message : String(error)}\n`);
      const since = session.clock.now();
      const log = new ServeLog(words, (line) => io.stdout(`${ctx.json() ? JSON.stringify({ log: line }) : line}\n`), since);
      const pending = new Set<Promise<void>>();
      const off = await session.on('incidentUpdated', (incident) => {
        const p = session
          .call('incidents.show', { id: incident.id })
          .then((d) => log.note(d))
          .catch(() => undefined)
          .finally(() => pending.delete(p));
        pending.add(p);
      });
      try {
        const profileName = ctx.flags().profile;
        const profiles = await session.call('profiles.list', undefined);
        if (profileName !== undefined) {
          // A saved profile (its key in the keychain) is kept as paging's: the app calls with it too.
          const p = profiles.find((x) => x.name === profileName) ?? profiles.find((x) => x.id === profileName);
          if (!p) throw usage('noProfile', { name: profileName, names: profiles.map((x) => x.name).join(', ') || '—' }, 'not-found');
          await session.call('paging.profile', { profileId: p.id });
        }
        const { profileId } = await session.call('paging.profile', undefined);
        const profile = profiles.find((x) => x.id === profileId)?.name ?? profileId;
        let status = await session.call('paging.receiverStatus', undefined);
        if (opts.host !== undefined || opts.port !== undefined) {
          // Kept like the app's settings: the address given to Alertmanager stays the same at the next start.
          status = await session.call('paging.receiverSave', { enabled: status.enabled, host: opts.host ?? status.host, port: opts.port ?? status.port });
        }
        status = await session.call('paging.receiverStart', undefined);
        if (!status.listening) throw usage('receiverListen', { host: status.host, port: status.port, detail: status.error?.kind ?? 'other' });
        if (status.warning) io.stderr(`callout: ${t('paging.receiver.exposed', status.warning.params)}\n`);
        if (ctx.json()) io.stdout(`${JSON.stringify({ url: status.url, healthUrl: status.healthUrl, host: status.host, auth: status.auth, profile })}\n`);
        else
          io.stdout(
            [
              t('cli:serve.listening', { url: status.url }),
              t('cli:serve.health', { url: status.healthUrl }),
              t('cli:serve.profile', { profile }),
              t('cli:serve.stop'),
              '',
            ].join('\n'),
          );
        // Incidents still open when it starts: their escalations resume (said as they go on).
        for (const i of await session.call('incidents.list', { open: true })) log.note(await session.call('incidents.show', { id: i.id }));
        await (io.until ?? signals());
      } finally {
        off();
        await Promise.all(pending);
        await session.call('paging.receiverStop', undefined).catch(() => undefined);
      }
      if (!ctx.json()) io.stdout(`${t('cli:serve.stopped')}\n`);
    });

  page
    .command('receiver')
    .description(t('cli:help.pageReceiver'))
    .addOption(new Option('--token [token]', t('cli:help.receiverToken')))
    .addOption(new Option('--no-token', t('cli:help.receiverNoToken')))
    .addOption(new Option('--basic <user[:password]>', t('cli:help.receiverBasic')))
    .addOption(new Option('--no-basic', t('cli:help.receiverNoBasic')))
    .addOption(new Option('--no-auth', t('cli:help.receiverNoAuth')))
    .option('--host <address>', t('cli:help.receiverHost'))
    .addOption(new Option('--port <n>', t('cli:help.receiverPort')).argParser(parse.int('--port', 0, 65535)))
    .option('--enable', t('cli:help.receiverEnable'))
    .option('--disable', t('cli:help.receiverDisable'))
    .option('--new-secret', t('cli:help.receiverNewSecret'))
    .action(async (opts: ReceiverFlags) => {
      const before = await session.call('paging.receiverStatus', undefined);
      const change = await receiverChange(ctx, opts);
      const status = change ? await session.call('paging.receiverSave', { ...change, host: opts.host ?? before.host, port: opts.port ?? before.port }) : before;
      const auth = {
        token: status.auth.bearer,
        basic: status.auth.basic?.username ?? null,
      };
      emit({ enabled: status.enabled, host: status.host, port: status.port, url: status.url, auth, changed: change !== null }, () =>
        [
          t(status.enabled ? 'cli:receiver.enabled' : 'cli:receiver.disabled', { host: status.host, port: status.port }),
          ...(status.url ? [t('cli:receiver.address', { url: status.url })] : []),
          ...(status.warning ? [t('paging.receiver.exposed', status.warning.params)] : []),
          t(auth.token ? 'cli:receiver.tokenSet' : 'cli:receiver.tokenNotSet'),
          auth.basic ? t('cli:receiver.basicSet', { user: auth.basic }) : t('cli:receiver.basicNotSet'),
          ...(!auth.token && !auth.basic ? [t('cli:receiver.noAuth')] : []),
          ...(change ? [t('cli:receiver.saved')] : []),
        ].join('\n'),
      );
    });

  page
    .command('paste')
    .description(t('cli:help.pagePaste'))
    .argument('<file>', t('cli:help.alertFile'))
    .option('--preview', t('cli:help.pastePreview'))
    .action(async (file: string, opts: { preview?: boolean }) => {
      const text = (await readInput(io, file)).toString('utf8');
      const preview = await session.call('paging.preview', { text }).catch((error: unknown) => {
        throw alertInvalid(words, error);
      });
      const said = [
        preview.route ? t('cli:pageTest.route', { name: preview.route.name }) : t('cli:pageTest.noRoute'),
        ...preview.why.map((w) => `  ${t(`paging.route.${w.code}` as string, w.params as Record<string, string>)}`),
        ...(preview.text ? [t('cli:pageTest.says', { text: preview.text })] : []),
        ...[...preview.errors, ...preview.warnings].map((i) => `  ${t(`paging.say.${i.code}` as string, i.params as Record<string, string>)}`),
        ...(preview.joins !== null ? [t('cli:pagePaste.joins', { id: preview.joins })] : []),
      ];
      if (opts.preview) return emit(preview, () => said.join('\n'));
      const incident = await session.call('paging.paste', { text });
      emit({ incident: incident ? incidentJson(incident) : null, preview }, () =>
        [
          incident ? t('cli:pagePaste.received', { id: incident.id, state: t(`cli:incidents.state.${incident.state}`) }) : t('cli:pagePaste.nothing'),
          ...said,
        ].join('\n'),
      );
    });

  page
    .command('test')
    .description(t('cli:help.pageTest'))
    .option('--severity <severity>', t('cli:help.severity'), 'critical')
    .option('--label <name=value>', t('cli:help.label'), collect, [])
    .option('--title <text>', t('cli:help.alertTitle'))
    .action(async (opts: { severity: string; label: string[]; title?: string }) => {
      const labels: Record<string, string> = { alertname: 'CalloutTest' };
      for (const pair of opts.label) {
        const at = pair.indexOf('=');
        if (at <= 0) throw usage('badLabel', { value: pair });
        labels[pair.slice(0, at)] = pair.slice(at + 1);
      }
      const now = session.clock.now();
      const post = {
        title: opts.title ?? t('cli:pageTest.title'),
        severity: opts.severity,
        labels: { ...labels, severity: opts.severity },
        key: `callout-test-${now}`,
        status: 'firing',
      };
      const parsed = parseAlertPost(post, undefined, { source: 'test' });
      if (!parsed.ok)
        throw usage('badTestAlert', { field: parsed.error.params.field, problem: t(`paging.intake.${parsed.error.params.problem}`, parsed.error.params) });
      const preview = await session.call('paging.preview', { text: JSON.stringify(post) });
      const incident = await session.call('paging.receive', { group: parsed.group });
      const why = preview.why.map((w) => t(`paging.route.${w.code}` as string, w.params as Record<string, string>));
      emit({ incident: incident ? incidentJson(incident) : null, route: preview.route, why: preview.why, text: preview.text }, () =>
        [
          incident ? t('cli:pageTest.opened', { id: incident.id, state: t(`cli:incidents.state.${incident.state}`) }) : t('cli:pageTest.none'),
          preview.route ? t('cli:pageTest.route', { name: preview.route.name }) : t('cli:pageTest.noRoute'),
          ...why.map((w) => `  ${w}`),
          ...(preview.text ? [t('cli:pageTest.says', { text: preview.text })] : []),
          ...(incident?.state === 'triggered' ? [t('cli:pageTest.serve', { id: incident.id })] : []),
        ].join('\n'),
      );
    });

  program
    .command('oncall')
    .description(t('cli:help.oncall'))
    .command('now')
    .description(t('cli:help.oncallNow'))
    .argument('[schedule]', t('cli:help.scheduleName'))
    .action(async (name: string | undefined) => {
      const all = await session.call('paging.schedules', undefined);
      const chosen = name === undefined ? all : all.filter((s) => s.name === name || String(s.id) === name);
      if (name !== undefined && chosen.length === 0) throw usage('noSchedule', { name, names: all.map((s) => s.name).join(', ') || '—' }, 'not-found');
      const contacts = new Map((await session.call('contacts.list', undefined)).map((c) => [c.id, c]));
      const now = session.clock.now();
      const rows = chosen.map((s) => oncallRow(s, now, (id) => contacts.get(id)));
      emit(rows, () =>
        rows.length
          ? rows
              .map((r) =>
                [
                  t('cli:oncall.schedule', { name: r.schedule, zone: r.timeZone }),
                  r.now
                    ? t('cli:oncall.now', { name: r.now.name, mobile: r.now.mobile, until: r.now.untilLocal, context: r.now.override ? 'override' : undefined })
                    : t('cli:oncall.nobody'),
                  r.next ? t('cli:oncall.next', { name: r.next.name, mobile: r.next.mobile, from: r.next.fromLocal }) : t('cli:oncall.noNext'),
                ].join('\n'),
              )
              .join('\n\n')
          : t('cli:oncall.noSchedules'),
      );
    });

  const incidents = program.command('incidents').description(t('cli:help.incidents'));
  incidents
    .command('list', { isDefault: true })
    .description(t('cli:help.incidentsList'))
    .option('--open', t('cli:help.incidentsOpen'))
    .option('--held', t('cli:help.incidentsHeld'))
    .addOption(new Option('--limit <n>', t('cli:help.limit')).argParser(parse.int('--limit', 1, 1000)).default(20))
    .action(async (opts: { open?: boolean; held?: boolean; limit: number }) => {
      const list = await session.call('incidents.list', { open: opts.open, held: opts.held, limit: opts.limit });
      emit(list.map(incidentJson), () => (list.length ? list.map((i) => incidentLine(words, i)).join('\n') : t('cli:incidents.none')));
    });
  incidents
    .command('show')
    .description(t('cli:help.incidentsShow'))
    .argument('<id>', t('cli:help.incidentId'))
    .action(async (id: string) => {
      const d = await session.call('incidents.show', { id: incidentId(id) });
      emit({ ...d, incident: incidentJson(d.incident) }, () => detailText(words, d));
    });
  for (const verb of ['ack', 'resolve'] as const) {
    incidents
      .command(verb)
      .description(t(verb === 'ack' ? 'cli:help.incidentsAck' : 'cli:help.incidentsResolve'))
      .argument('<id>', t('cli:help.incidentId'))
      .option('--by <name>', t('cli:help.by'))
      .action(async (id: string, opts: { by?: string }) => {
        const by = opts.by ?? defaultBy(io.env);
        const i = await session.call(verb === 'ack' ? 'incidents.ack' : 'incidents.resolve', { id: incidentId(id), by });
        emit(incidentJson(i), () => t(verb === 'ack' ? 'cli:incidents.acked' : 'cli:incidents.resolved', { id: i.id, by }));
      });
  }
  incidents
    .command('export')
    .description(t('cli:help.incidentsExport'))
    .argument('<id>', t('cli:help.incidentId'))
    .requiredOption('--csv <file>', t('cli:help.csvFile'))
    .action(async (id: string, opts: { csv: string }) => {
      const r = await session.call('incidents.export', { id: incidentId(id), lang: words.lang, timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone });
      try {
        writeFileSync(opts.csv, r.csv);
      } catch (error) {
        throw usage('cannotWrite', { path: opts.csv, detail: (error as NodeJS.ErrnoException).code ?? String(error) });
      }
      emit({ file: opts.csv, summary: r.summary }, () => [t('cli:incidents.exported', { file: opts.csv }), r.summary].join('\n'));
    });
}

interface OncallPerson {
  contactId: number;
  name: string;
  mobile: string;
}

/** Who is on call in a schedule now and who is next, with times in the schedule's time zone. */
function oncallRow(s: Schedule, now: number, contact: (id: number) => { name: string; mobile: string } | undefined) {
  const zone = s.rotation.timeZone;
  const local = (ms: number) => localTime(ms, offsetAt(ms, zone) / 60_000).slice(0, 16);
  const person = (id: number): OncallPerson => ({ contactId: id, name: contact(id)?.name ?? `#${id}`, mobile: contact(id)?.mobile ?? '' });
  const cur = onCallAt(s, now);
  const next = nextShift(s, now);
  return {
    scheduleId: s.id,
    schedule: s.name,
    timeZone: zone,
    now: cur ? { ...person(cur.contactId), until: new Date(cur.to).toISOString(), untilLocal: local(cur.to), override: cur.overrideId !== null } : null,
    next: next ? { ...person(next.contactId), from: new Date(next.from).toISOString(), fromLocal: local(next.from), override: next.overrideId !== null } : null,
  };
}
