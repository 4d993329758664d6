// `callout bulk FILE --template ID [--map col=marker ...] [--dry-run] [--skip-duplicates [kind]]`
// and `callout bulk --resume BATCH`: a spreadsheet to a batch of calls, under the profile's limits.
// Everything goes through the handler table (bulk.open, bulk.create, bulk.start ...) and the
// bulkProgress push, as in the app.
import { IMPORT_LIMITS } from '../../common/domain/import-limits';
import { Command, Option } from 'commander';
import type { BatchItemView, BatchProgress, DuplicatePolicy, MappingSpec, ValidationReport } from '../../common/bulk-types';
import { maskMobile } from '../../common/domain/mobile';
import { CliFailure, EXIT, failureFromIpc, usage } from './io';
import type { CommandContext } from './context';
import type { CliWords } from './text';
import { liveLine } from './terminal-text';
import { readInput, STDIN } from './input';

/**
 * A progress line when standard error is a terminal: carriage-return updates there; nothing when
 * stderr is piped or a file (whatever stdout is), or with --json.
 */
export function progressLine(ctx: CommandContext): { update(text: string): void; end(): void } {
  const line = liveLine({ write: ctx.io.stderr, live: ctx.io.stderrIsTTY && !ctx.json(), clock: ctx.session.clock });
  return { update: (text) => line.show(text), end: () => line.end('keep') };
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

function parseMaps(pairs: readonly string[]): MappingSpec {
  const spec: MappingSpec = {};
  for (const p of pairs) {
    const eq = p.lastIndexOf('=');
    if (eq <= 0 || eq === p.length - 1) throw usage('mapShape', { value: p });
    spec[p.slice(0, eq).trim()] = p.slice(eq + 1).trim();
  }
  return spec;
}

function duplicatePolicy(value: string | boolean | undefined): DuplicatePolicy {
  if (value === undefined || value === false) return 'none';
  if (value === true || value === 'same-text' || value === 'text') return 'same-text';
  if (value === 'same-mobile' || value === 'mobile') return 'same-mobile';
  throw usage('skipDuplicates', { value });
}

/** The text of a spreadsheet row's problem (the catalog's importIssue.<kind>). */
export function issueText(words: CliWords, i: ValidationReport['issues'][number]): string {
  return words.t(`importIssue.${i.kind}`, { column: i.column ?? '', value: i.value ?? '', detail: i.detail ?? '' });
}

function reportLines(words: CliWords, r: ValidationReport, policy: DuplicatePolicy): string {
  const { t } = words;
  const x = r.totals;
  const lines = [
    t('cli:bulk.totals', { rows: x.rows, valid: x.valid, invalid: x.invalid, duplicates: x.duplicates, sameMobile: x.sameMobile }),
    t('cli:bulk.mapping', { mobile: r.mapping.mobile, markers: r.mapping.markers.map((c, i) => t('cli:bulk.markerMap', { n: i + 1, column: c })).join('') }),
    t(`cli:bulk.toSend.${policy}`, { count: x.toSend[policy], units: x.units[policy] }),
  ];
  if (r.preview.length)
    lines.push(
      t('cli:bulk.preview'),
      ...r.preview.map(
        (p) => `  ${t('cli:bulk.row', { row: p.row })}  ${p.mobile}  ${p.content}  (${t('cli:bulk.lengthUnits', { length: p.length, count: p.units })})`,
      ),
    );
  if (r.issues.length) {
    lines.push(t('cli:bulk.issues'), ...r.issues.slice(0, 20).map((i) => `  ${t('cli:bulk.row', { row: i.row })}: ${issueText(words, i)}`));
    const more = r.issues.length - 20 + r.issuesOmitted;
    if (more > 0) lines.push(`  ${t('cli:bulk.more', { count: more })}`);
  }
  return lines.join('\n');
}

function progressText(words: CliWords, p: BatchProgress): string {
  const eta = p.etaMs === null ? '' : words.t('cli:bulk.eta', { minutes: Math.max(1, Math.round(p.etaMs / 60_000)) });
  return words.t('cli:bulk.progress', {
    sent: p.sent,
    of: p.total - p.skipped - p.cancelled,
    accepted: p.accepted,
    answered: p.answered,
    failed: p.failed,
    unknown: p.unknown,
    remaining: p.remaining,
    rate: p.ratePerMinute,
    inUse: p.governor.inUse,
    limit: p.governor.limit,
    eta,
  });
}

function problemJson(words: CliWords, i: BatchItemView) {
  return { row: i.rowNumber, mobile: i.mobile, status: i.status, code: i.code, error: words.reason(i.reason) || null, messageId: i.messageId };
}

/** Resolves with the batch's progress once `done(progress)` holds: on each bulkProgress push, and by asking now and then. */
async function waitFor(
  ctx: CommandContext,
  batchId: number,
  done: (p: BatchProgress) => boolean,
  onProgress: (p: BatchProgress) => void,
): Promise<BatchProgress> {
  let wake: () => void = () => undefined;
  const off = await ctx.session.on('bulkProgress', (p) => {
    if (p.batchId !== batchId) return;
    onProgress(p);
    wake();
  });
  try {
    for (;;) {
      const p = await ctx.session.call('bulk.progress', { batchId });
      if (done(p)) return p;
      await new Promise<void>((resolve) => {
        const timer = ctx.session.clock.setTimeout(resolve, 250);
        wake = () => {
          timer.cancel();
          resolve();
        };
      });
    }
  } finally {
    off();
  }
}

export function registerBulkCommand(program: Command, ctx: CommandContext): void {
  const { t } = ctx.words;
  program
    .command('bulk')
    .description(t('cli:help.bulk'))
    .argument('[file]', t('cli:help.bulkFile'))
    .option('--template <id>', t('cli:help.template'))
    .option('--map <column=marker>', t('cli:help.map'), collect, [])
    .option('--dry-run', t('cli:help.dryRun'))
    .addOption(new Option('--skip-duplicates [kind]', t('cli:help.skipDuplicates')))
    .option('--name <name>', t('cli:help.batchName'))
    .option('--resume <batch>', t('cli:help.resume'))
    .option('--no-wait', t('cli:help.noWait'))
    .action(
      async (
        file: string | undefined,
        opts: { template?: string; map: string[]; dryRun?: boolean; skipDuplicates?: string | boolean; name?: string; resume?: string; wait: boolean },
      ) => {
        const words = ctx.words;
        const { session } = ctx;
        const policy = duplicatePolicy(opts.skipDuplicates);
        if (opts.resume !== undefined && file !== undefined) throw usage('fileOrResume');
        if (opts.resume === undefined && file === undefined) throw usage('needFile');

        let report: ValidationReport | null = null;
        let importId: string | null = null;
        let templateId: string | null = null;
        if (file !== undefined) {
          if (!opts.template) throw usage('needTemplate');
          const template = (await session.call('templates.list', undefined)).find((x) => x.id === opts.template);
          if (!template) throw usage('noTemplate', { id: opts.template });
          templateId = template.id;
          // A file over the size limit is refused from its size, never read into memory; `-` is standard input.
          const bytes = await readInput(ctx.io, file, {
            maxBytes: IMPORT_LIMITS.fileBytes,
            tooLarge: (found) =>
              found === null
                ? usage('stdinTooLarge', { max: IMPORT_LIMITS.fileBytes }, 'import-too-large')
                : failureFromIpc({ code: 'import-too-large', params: { kind: 'fileBytes', max: IMPORT_LIMITS.fileBytes, found } }),
          });
          const fileName = file === STDIN ? t('cli:stdinName') : file;
          // Reading happens in main's import worker: on a terminal, a line follows its progress.
          const reading = progressLine(ctx);
          const requestId = `cli-${process.pid}`;
          const off = await session.on('importProgress', (p) => {
            if (p.requestId === requestId)
              reading.update(t(`cli:bulk.reading.${p.phase}`, { percent: Math.round((p.bytes / Math.max(1, p.totalBytes)) * 100), rows: p.rows }));
          });
          let view;
          try {
            view = await session.call('bulk.open', {
              templateId,
              requestId,
              file: { name: fileName, base64: bytes.toString('base64') },
              ...(opts.map.length ? { mapping: parseMaps(opts.map) } : {}),
            });
          } finally {
            off();
            reading.end();
          }
          report = view.report;
          importId = view.importId;
          if (opts.dryRun) {
            await session.call('bulk.discard', { importId });
            ctx.emit(report, () => reportLines(words, report!, policy));
            return;
          }
          if (report.totals.toSend[policy] === 0)
            ctx.printAndFail(report, () => reportLines(words, report!, policy), usage('nothingToSend', {}, 'nothing-to-send'));
        } else if (opts.dryRun) throw usage('dryRunNeedsFile');

        const profileId = await session.providerProfile(ctx.flags());
        const line = progressLine(ctx);
        let batchId = 0;
        // Ctrl-C pauses: sends in flight finish and are recorded; `--resume` continues.
        const stopOnSignal = () => {
          if (batchId) void session.call('bulk.pause', { batchId }).catch(() => undefined);
        };
        process.once('SIGINT', stopOnSignal);
        try {
          if (opts.resume !== undefined) {
            batchId = Number(opts.resume.replace(/^#/, ''));
            if (!Number.isInteger(batchId) || batchId <= 0) throw usage('resumeNumber', { value: opts.resume });
            const batch = (await session.call('bulk.list', { limit: 500 })).find((b) => b.id === batchId);
            // A usage error (nothing sent) in the words of main's own not-found error for a batch.
            if (!batch) throw new CliFailure(EXIT.usage, 'not-found', { key: 'error.not-found_batch', params: { id: batchId } });
            if (batch.profile !== profileId) throw usage('resumeProfile', { id: batchId, profile: batch.profile });
            templateId = batch.templateId;
            await session.call('bulk.resume', { batchId });
          } else {
            const batch = await session.call('bulk.create', {
              importId: importId!,
              profileId,
              duplicates: policy,
              name: opts.name?.trim() || (file === STDIN ? t('cli:stdinName') : file!.split(/[\\/]/).pop()!),
            });
            batchId = batch.id;
            await session.call('bulk.start', { batchId });
          }
          const show = (p: BatchProgress) => line.update(progressText(words, p));
          let p = await waitFor(ctx, batchId, (x) => x.status !== 'running', show);
          if (opts.wait) p = await waitFor(ctx, batchId, (x) => x.status !== 'running' && x.calling === 0, show);
          line.end();
          const problems = [
            ...(await session.call('bulk.items', { batchId, status: 'unknown', limit: 1000 })),
            ...(await session.call('bulk.items', { batchId, status: 'rejected', limit: 1000 })),
          ].sort((a, b) => a.rowNumber - b.rowNumber);
          const statusText = p.statusReason ? words.reason(p.statusReason) : null;
          const value = {
            batchId,
            templateId,
            status: p.status,
            pausedReason: p.pausedReason,
            message: statusText,
            total: p.total,
            sent: p.sent,
            accepted: p.accepted,
            answered: p.answered,
            notAnswered: p.notAnswered,
            calling: p.calling,
            rejected: p.rejected,
            unknown: p.unknown,
            skipped: p.skipped,
            cancelled: p.cancelled,
            remaining: p.remaining,
            ...(report ? { report: { totals: report.totals, issueCounts: report.issueCounts } } : {}),
            problems: problems.map((i) => problemJson(words, i)),
          };
          const human = () =>
            [
              t('cli:bulk.result', { id: batchId, status: t(`cli:bulk.status.${p.status}`) }),
              `  ${t('cli:bulk.counts', { sent: p.sent, accepted: p.accepted, answered: p.answered, notAnswered: p.notAnswered, calling: p.calling, rejected: p.rejected, unknown: p.unknown, skipped: p.skipped, cancelled: p.cancelled, remaining: p.remaining })}`,
              ...(statusText ? [`  ${statusText}`] : []),
              ...problems
                .slice(0, 20)
                .map(
                  (i) =>
                    `  ${t('cli:bulk.row', { row: i.rowNumber })} ${maskMobile(i.mobile)}: ${t(`cli:bulk.itemStatus.${i.status}`)}${i.code ? ` (${t('provider.short', { code: i.code })})` : ''}${i.reason ? ` ${words.reason(i.reason)}` : ''}`,
                ),
              ...(p.status === 'paused' ? [t('cli:bulk.resumeWith', { id: batchId })] : []),
            ].join('\n');
          if (p.status === 'done' && p.unknown === 0 && p.rejected === 0) {
            ctx.emit(value, human);
            return;
          }
          const reason = p.pausedReason;
          let failure: CliFailure;
          if (p.status === 'done' && p.unknown > 0)
            failure = new CliFailure(EXIT.transport, 'unknown-outcomes', { key: 'cli:bulk.unknownOutcomes', params: { count: p.unknown, id: batchId } });
          else if (p.status === 'done')
            failure = new CliFailure(EXIT.rejected, 'rejected-items', { key: 'cli:bulk.rejectedItems', params: { count: p.rejected, id: batchId } });
          else if (reason === 'provider-unreachable' || reason === 'too-many-unknown')
            failure = new CliFailure(EXIT.transport, reason, { key: 'cli:bulk.paused', params: { id: batchId, why: statusText ?? '' } });
          else if (reason === 'user' || reason === 'closed')
            failure = new CliFailure(EXIT.invalid, 'paused', { key: 'cli:bulk.resumeWith', params: { id: batchId } });
          else
            failure = new CliFailure(EXIT.rejected, reason ?? p.status, {
              key: 'cli:bulk.stopped',
              params: { id: batchId, status: t(`cli:bulk.status.${p.status}`), why: statusText ?? '' },
            });
          ctx.printAndFail(value, human, failure);
        } finally {
          process.removeListener('SIGINT', stopOnSignal);
          line.end();
        }
      },
    );
}
