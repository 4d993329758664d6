// `callout profile list|show|add|update|remove|set-key|dialect`: the app's profiles from a terminal,
// through the handler table only (profiles.*, dialects.*), with the same fields as the app's form.
// The key is never a flag: `set-key` reads it from standard input or a prompt that does not echo.
import { Command, Option } from 'commander';
import { FOLLOW_MODES, SIGNING_MODES, type FollowMode, type ProfileInput, type ProfileLines, type ProfileView, type SigningMode } from '../../common/contract';
import { CALLS_PER_LINE } from '../../common/domain/lines';
import { formatClock } from '../dial/limits';
import type { CommandContext } from './context';
import { failureFromIpc, usage } from './io';

interface ProfileFlags {
  name?: string;
  signing?: SigningMode;
  /** 'none': no warning. */
  lowBalance?: number | 'none';
  follow?: FollowMode;
  listenHost?: string;
  listenPort?: number;
  newSecret?: boolean;
  lines?: number;
  lendLines?: 'on' | 'off';
}

/** A profile as scripts read it: the form's fields, the key's state (never the key), the dialect by name, how calls are followed, its lines. */
export function profileJson(p: ProfileView, full = false, lines?: ProfileLines) {
  return {
    id: p.id,
    name: p.name,
    baseUrl: p.baseUrl,
    apiId: p.apiId,
    signing: p.signing,
    format: p.format,
    connectTimeoutMs: p.connectTimeoutMs,
    totalTimeoutMs: p.totalTimeoutMs,
    lowBalanceThreshold: p.lowBalanceThreshold,
    builtin: p.builtin,
    hasKey: p.hasKey,
    dialect: p.dialectId ?? 'custom',
    dialectName: p.dialect.name,
    follow: p.follow,
    receipts: p.receipts,
    ...(lines
      ? {
          lines: lines.lines,
          lendLines: lines.lendLines,
          lendingStoppedAt: lines.lendingStoppedAt === null ? null : new Date(lines.lendingStoppedAt).toISOString(),
        }
      : {}),
    ...(full ? { dialectSpec: p.dialect } : {}),
  };
}

export function registerProfileCommand(program: Command, ctx: CommandContext): void {
  const { t } = ctx.words;
  const { session, parse } = ctx;

  const find = async (ref: string): Promise<ProfileView> => {
    const list = await session.call('profiles.list', undefined);
    const p = list.find((x) => x.name === ref) ?? list.find((x) => x.id === ref) ?? list.find((x) => x.name.toLowerCase() === ref.toLowerCase());
    if (!p) throw usage('noProfile', { name: ref, names: list.map((x) => x.name).join(', ') || '—' }, 'not-found');
    return p;
  };

  /** A built-in dialect by its name in the reader's language (the catalog's dialect.<id>); one of the profile's own by its name. */
  const dialectName = (p: ProfileView) => (p.dialectId ? (t(`dialect.${p.dialectId}.name`, { defaultValue: p.dialect.name }) as string) : p.dialect.name);
  const line = (label: string, value: string) => t('cli:profile.line', { label, value });
  const note = (text: string, n: string) => t('cli:profile.note', { text, note: n });

  const lending = (lines: ProfileLines) =>
    !lines.lendLines
      ? t('cli:profile.lendOff')
      : lines.lendingStoppedAt !== null
        ? t('cli:profile.lendStopped', { time: formatClock(lines.lendingStoppedAt, ctx.session.clock.now()) })
        : t('cli:profile.lendOn');
  const human = (p: ProfileView, lines: ProfileLines) =>
    [
      p.builtin ? note(p.name, t('cli:profile.builtin')) : p.name,
      line(t('cli:profile.baseUrl'), p.baseUrl),
      line('API ID', p.apiId),
      line(t('cli:profile.key'), t(p.hasKey ? 'cli:profile.keySet' : 'cli:profile.keyMissing')),
      line(
        t('cli:profile.signing'),
        `${p.signing} · ${t('cli:profile.format')} ${p.format.toUpperCase()} · ${t('cli:profile.timeouts', { connect: p.connectTimeoutMs / 1000, total: p.totalTimeoutMs / 1000 })}`,
      ),
      line(t('cli:profile.dialect'), p.dialectId ? `${dialectName(p)} [${p.dialectId}]` : dialectName(p)),
      line(t('cli:profile.follow'), t(`cli:profile.followMode.${p.follow}`)),
      ...(p.receipts.url ? [line(t('cli:profile.receipts'), note(p.receipts.url, t(`cli:profile.listener.${p.receipts.state}`)))] : []),
      line(t('cli:profile.lines'), `${t('cli:profile.linesValue', { count: lines.lines, concurrent: lines.lines * CALLS_PER_LINE })} · ${lending(lines)}`),
    ].join('\n');

  /** The form's fields from the flags (global ones: --base-url, --api-id, --format, --timeout, --connect-timeout). */
  const formInput = (name: string, o: ProfileFlags, base: ProfileView | null): ProfileInput => {
    const g = ctx.flags();
    const baseUrl = g.baseUrl ?? base?.baseUrl;
    const apiId = g.apiId ?? base?.apiId;
    if (!baseUrl) throw usage('profileNeedsBaseUrl');
    if (!apiId) throw usage('profileNeedsApiId');
    return {
      ...(base ? { id: base.id } : {}),
      name,
      baseUrl,
      apiId,
      signing: o.signing ?? g.sign ?? base?.signing ?? 'off',
      format: g.format ?? base?.format ?? 'json',
      connectTimeoutMs: g.connectTimeout !== undefined ? Math.round(g.connectTimeout * 1000) : (base?.connectTimeoutMs ?? 5000),
      totalTimeoutMs: g.timeout !== undefined ? Math.round(g.timeout * 1000) : (base?.totalTimeoutMs ?? 15000),
      lowBalanceThreshold: o.lowBalance === 'none' ? null : o.lowBalance !== undefined ? o.lowBalance : (base?.lowBalanceThreshold ?? null),
    };
  };

  /** After the form: the dialect (--dialect), how calls are followed (--follow, --listen-host/-port, --new-secret), the lines (--lines, --lend-lines). */
  const rest = async (p: ProfileView, o: ProfileFlags): Promise<{ profile: ProfileView; reread: number; lines: ProfileLines }> => {
    let profile = p;
    let reread = 0;
    const dialectRef = ctx.flags().dialect;
    if (dialectRef !== undefined) {
      const d = await session.dialect(dialectRef);
      const r = await session.call('profiles.setDialect', { id: p.id, dialect: d.id ? { builtin: d.id } : { custom: d } });
      profile = r.profile;
      reread = r.reread;
    }
    if (o.follow !== undefined || o.listenHost !== undefined || o.listenPort !== undefined || o.newSecret) {
      profile = await session.call('profiles.setFollow', {
        id: p.id,
        follow: o.follow ?? profile.follow,
        host: o.listenHost,
        port: o.listenPort,
        newSecret: o.newSecret,
      });
    }
    const lines =
      o.lines !== undefined || o.lendLines !== undefined
        ? await session.call('profiles.setLines', {
            id: p.id,
            ...(o.lines !== undefined ? { lines: o.lines } : {}),
            ...(o.lendLines !== undefined ? { lendLines: o.lendLines === 'on' } : {}),
          })
        : await session.call('profiles.lines', { id: p.id });
    return { profile, reread, lines };
  };

  const withFormFlags = (cmd: Command) =>
    cmd
      .addOption(new Option('--signing <mode>', t('cli:help.signing')).argParser(parse.oneOf('--signing', SIGNING_MODES)))
      .addOption(
        new Option('--low-balance <units>', t('cli:help.lowBalance')).argParser((v: string) =>
          v === 'none' ? ('none' as const) : parse.int('--low-balance', 0, 10_000_000)(v),
        ),
      )
      .addOption(new Option('--follow <mode>', t('cli:help.follow')).argParser(parse.oneOf('--follow', FOLLOW_MODES)))
      .option('--listen-host <ip>', t('cli:help.listenHost'))
      .addOption(new Option('--listen-port <n>', t('cli:help.listenPort')).argParser(parse.int('--listen-port', 0, 65535)))
      .option('--new-secret', t('cli:help.newSecret'))
      .addOption(new Option('--lines <n>', t('cli:help.lines')).argParser(parse.int('--lines', 1, 100)))
      .addOption(new Option('--lend-lines <on|off>', t('cli:help.lendLines')).argParser(parse.oneOf('--lend-lines', ['on', 'off'] as const)));

  const profile = program.command('profile').description(t('cli:help.profileGroup'));

  profile
    .command('list')
    .description(t('cli:help.profileList'))
    .action(async () => {
      const list = await session.call('profiles.list', undefined);
      ctx.emit(
        list.map((p) => profileJson(p)),
        () =>
          list
            .map(
              (p) =>
                `${p.name}\t${p.baseUrl}\t${p.apiId}\t${t(p.hasKey ? 'cli:profile.keySet' : 'cli:profile.keyMissing')}\t${dialectName(p)}\t${t(`cli:profile.followMode.${p.follow}`)}`,
            )
            .join('\n'),
      );
    });

  profile
    .command('show')
    .argument('<name>', t('cli:help.profileName'))
    .description(t('cli:help.profileShow'))
    .action(async (name: string) => {
      const p = await find(name);
      const lines = await session.call('profiles.lines', { id: p.id });
      ctx.emit(profileJson(p, true, lines), () => human(p, lines));
    });

  withFormFlags(profile.command('add').argument('<name>', t('cli:help.profileName')).description(t('cli:help.profileAdd'))).action(
    async (name: string, o: ProfileFlags) => {
      const list = await session.call('profiles.list', undefined);
      if (list.some((x) => x.name.toLowerCase() === name.trim().toLowerCase())) throw usage('profileExists', { name });
      const saved = await session.call('profiles.save', formInput(name, o, null));
      const { profile: p, lines } = await rest(saved, o);
      ctx.emit(profileJson(p, true, lines), () =>
        [t('cli:profile.added', { name: p.name }), human(p, lines), t('cli:profile.setKeyNext', { name: p.name })].join('\n'),
      );
    },
  );

  withFormFlags(
    profile
      .command('update')
      .argument('<name>', t('cli:help.profileName'))
      .option('--name <new>', t('cli:help.profileRename'))
      .description(t('cli:help.profileUpdate')),
  ).action(async (name: string, o: ProfileFlags) => {
    const base = await find(name);
    const saved = await session.call('profiles.save', formInput(o.name ?? base.name, o, base));
    const { profile: p, reread, lines } = await rest(saved, o);
    ctx.emit({ ...profileJson(p, true, lines), reread }, () =>
      [t('cli:profile.updated', { name: p.name }), human(p, lines), ...(reread ? [t('cli:profile.reread', { count: reread })] : [])].join('\n'),
    );
  });

  profile
    .command('remove')
    .argument('<name>', t('cli:help.profileName'))
    .description(t('cli:help.profileRemove'))
    .action(async (name: string) => {
      const p = await find(name);
      await session.call('profiles.remove', { id: p.id });
      ctx.emit({ removed: p.name, id: p.id }, () => t('cli:profile.removed', { name: p.name }));
    });

  profile
    .command('set-key')
    .argument('<name>', t('cli:help.profileName'))
    .description(t('cli:help.profileSetKey'))
    .action(async (name: string) => {
      const p = await find(name);
      if (!ctx.io.readSecret) throw usage('noKeyInput');
      const key = await ctx.io.readSecret(t('cli:profile.keyPrompt', { name: p.name }));
      if (key === null || key.trim() === '') throw usage('emptyKey');
      const saved = await session.call('profiles.setKey', { id: p.id, apiKey: key });
      // Without a keychain the key would live only as long as this command: say so instead of pretending.
      const store = (await session.call('app.info', undefined)).secretStore;
      if (store.kind !== 'keychain') throw failureFromIpc({ code: 'keychain-unavailable', params: { kind: store.reasonCode ?? 'unavailable' } });
      ctx.emit({ id: saved.id, name: saved.name, hasKey: saved.hasKey }, () => t('cli:profile.keySaved', { name: saved.name }));
    });

  profile
    .command('dialect')
    .argument('<name>', t('cli:help.profileName'))
    .option('--file <file>', t('cli:help.dialectFile'))
    .option('--builtin <id>', t('cli:help.dialectBuiltin'))
    .description(t('cli:help.profileDialect'))
    .action(async (name: string, o: { file?: string; builtin?: string }) => {
      if ((o.file === undefined) === (o.builtin === undefined)) throw usage('fileOrBuiltin');
      const p = await find(name);
      let choice: { builtin: string } | { custom: Awaited<ReturnType<typeof session.dialect>> };
      if (o.builtin !== undefined) {
        const ids = (await session.call('dialects.list', undefined)).map((d) => d.id);
        if (!ids.includes(o.builtin)) throw usage('oneOf', { flag: '--builtin', allowed: ids.join(', '), value: o.builtin });
        choice = { builtin: o.builtin };
      } else {
        const d = await session.dialect(o.file!);
        choice = d.id ? { builtin: d.id } : { custom: d };
      }
      const r = await session.call('profiles.setDialect', { id: p.id, dialect: choice });
      ctx.emit({ ...profileJson(r.profile, true), reread: r.reread }, () =>
        [
          t('cli:profile.dialectSet', { name: r.profile.name, dialect: dialectName(r.profile) }),
          ...(r.reread ? [t('cli:profile.reread', { count: r.reread })] : []),
          ...(r.profile.follow !== p.follow ? [line(t('cli:profile.follow'), t(`cli:profile.followMode.${r.profile.follow}`)).trim()] : []),
        ].join('\n'),
      );
    });
}
