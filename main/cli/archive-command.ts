// `callout archive list`: the archive files of old months (archives folder). `callout archive create
// --before 2026-03 [--dry-run]`: moves the exchanges of the months before that one to a new archive,
// with a progress line on a terminal, and waits until it is done. `callout exchanges --archive NAME
// --search WORDS` reads an archive (capture-command.ts).
import type { Command } from 'commander';
import type { ArchiveInfo, ArchivePlan } from '../../common/history-types';
import { formatBytes } from '../../common/domain/bytes';
import { monthStartOffsetMinutes } from '../../common/domain/months';
import type { CommandContext } from './context';
import { failureFromIpc } from './io';
import { progressLine } from './bulk-command';

/** How often the command asks how far the archive is. */
const POLL_MS = 250;

export function registerArchiveCommand(program: Command, ctx: CommandContext): void {
  const { session, words, emit } = ctx;
  const { t } = words;
  const months = (from: string | null, to: string | null) => (from === to ? (from ?? '—') : `${from} – ${to}`);
  const line = (a: ArchiveInfo) =>
    a.problem
      ? `${a.name}\t${words.error({ code: 'archive-failed', params: { kind: a.problem, name: a.name } })}`
      : `${a.name}\t${months(a.from, a.to)}\t${t('cli:archive.count', { count: a.exchanges ?? 0 })}\t${formatBytes(a.bytes)}`;
  const planText = (p: ArchivePlan) =>
    p.exchanges
      ? t('cli:archive.plan', { count: p.exchanges, bytes: formatBytes(p.bytes), months: months(p.from, p.to) })
      : words.error({ code: 'archive-failed', params: { kind: 'empty', month: p.before } });

  const archive = program.command('archive').description(t('cli:help.archiveGroup'));
  archive
    .command('list')
    .description(t('cli:help.archiveList'))
    .action(async () => {
      const { folder, archives } = await session.call('store.archives', undefined);
      emit({ folder, archives }, () => [t('cli:archive.folder', { folder }), ...(archives.length ? archives.map(line) : [t('archive.none')])].join('\n'));
    });
  archive
    .command('create')
    .description(t('cli:help.archiveCreate'))
    .requiredOption('--before <month>', t('cli:help.archiveBefore'))
    .option('--dry-run', t('cli:help.archiveDryRun'))
    .action(async (opts: { before: string; dryRun?: boolean }) => {
      const utcOffsetMinutes = monthStartOffsetMinutes(opts.before);
      const plan = await session.call('store.previewArchive', { before: opts.before, utcOffsetMinutes });
      if (opts.dryRun) return emit(plan, () => planText(plan));
      await session.call('store.archive', { before: opts.before, utcOffsetMinutes, confirm: true });
      const progress = progressLine(ctx);
      for (;;) {
        const running = (await session.call('store.status', undefined)).archive.running;
        if (!running) break;
        progress.update(t(`archive.${running.phase}`, { name: running.name, done: running.done, total: running.total }));
        await session.clock.sleep(POLL_MS);
      }
      progress.end();
      const { last, error } = (await session.call('store.status', undefined)).archive;
      if (error || !last) throw failureFromIpc((error ?? { code: 'internal', params: {} }) as never);
      emit(last, () =>
        [
          t('cli:archive.done', { count: last.exchanges, months: months(last.from, last.to), name: last.name, size: formatBytes(last.archiveBytes) }),
          t('archive.storeFile', { before: formatBytes(last.storeBytesBefore), after: formatBytes(last.storeBytesAfter) }),
        ].join('\n'),
      );
    });
}
