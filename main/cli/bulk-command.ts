// `callout bulk FILE --template ID [--map col=marker ...] [--dry-run] [--skip-duplicates [kind]]`
// and `callout bulk --resume BATCH`: a spreadsheet to a batch of calls, under the profile's limits.
import { Command, Option } from 'commander';
import type { FailureView } from '../../common/contract';
import { maskMobile } from '../../common/domain/mobile';
import type { MessageRecord } from '../../common/records';
import { createCallRuntime, type CallRuntime } from '../bulk/runtime';
import { ImportError, prepareRows, readSpreadsheet, resolveMapping, suggestMapping, type DuplicatePolicy, type MappingSpec, type ValidationReport } from '../bulk/import';
import { BulkError, type BatchProgress, type SendFn } from '../bulk/queue';
import type { DialProgress } from '../dial/dialer';
import { ProfileError } from '../profiles/profile-service';
import { openStore, type Store } from '../store';
import type { BatchItemView } from '../store/batch-repository';
import { dataDirectory } from '../store/paths';
import { CallTracker } from '../tracking/call-tracker';
import { ValidationError } from '../voice/message-service';
import { CliFailure, EXIT, type CliIo } from './io';
import type { CliSession, ProviderFlags } from './session';

/** What a command needs from `runCli`. */
export interface CommandContext {
  io: CliIo;
  session: CliSession;
  flags: () => ProviderFlags;
  json: () => boolean;
}

/**
 * Speeds up following calls, the governor's hour and dial pauses when talking to a sped-up sandbox
 * (`callout sandbox --time-scale 0.01`). Not for real providers.
 */
export function cliTimeScale(env: NodeJS.ProcessEnv): number {
  const n = Number(env.CALLOUT_TIME_SCALE);
  return Number.isFinite(n) && n > 0 && n <= 1 ? n : 1;
}

/** Prints a value (JSON or human) and fails with it already printed, as `callout send` does. */
export function printAndFail(ctx: CommandContext, value: unknown, human: string | null, failure: CliFailure): never {
  if (ctx.json()) ctx.io.stdout(`${JSON.stringify(value)}\n`);
  else if (human) ctx.io.stdout(`${human}\n`);
  throw Object.assign(failure, { extra: { ...failure.extra, printed: true } });
}

/** A progress line on a terminal only: carriage-return updates on stderr, nothing when piped or with --json. */
export function progressLine(ctx: CommandContext): { update(text: string): void; end(): void } {
  const live = ctx.io.isTTY && !ctx.json();
  let shown = false;
  let last = 0;
  return {
    update(text) {
      if (!live) return;
      const now = Date.now();
      if (now - last < 100) return;
      last = now;
      ctx.io.stderr(`\r\x1b[2K${text}`);
      shown = true;
    },
    end() {
      if (live && shown) ctx.io.stderr('\n');
      shown = false;
    },
  };
}

/** CLI failures from the handler table that mean nothing was sent, turned back into the errors the queue and dialer know. */
function asLocalError(error: unknown): unknown {
  if (!(error instanceof CliFailure)) return error;
  if (error.kind === 'send-in-flight' || error.kind === 'invalid-mobile' || error.kind === 'invalid-content') return new ValidationError(error.kind, error.message);
  if (error.kind === 'no-key' || error.kind === 'not-found' || error.kind === 'invalid-input' || error.kind === 'keychain-unavailable') {
    return new ProfileError(error.kind === 'keychain-unavailable' ? 'no-key' : error.kind, error.message);
  }
  return error;
}

/**
 * The bulk queue and the dialer for one CLI invocation: sends go through the session's handler
 * table (messages.send), calls are followed by polling messages.refreshStatus, and batches,
 * contacts and limits are read from the same data directory.
 */
export function openCliRuntime(
  ctx: CommandContext,
  handlers: { onBulkProgress?: (p: BatchProgress) => void; onDialProgress?: (p: DialProgress) => void } = {},
): { runtime: CallRuntime; store: Store; close(): Promise<void> } {
  const scale = cliTimeScale(ctx.io.env);
  const store = openStore(dataDirectory(ctx.io.env));
  let runtime: CallRuntime | null = null;
  const tracker = new CallTracker({
    repo: store.messages,
    delayScale: scale,
    maxAgeMs: 30 * 60_000,
    poll: async (m) => ((await ctx.session.call('messages.refreshStatus', { id: m.id })).endedAt !== null ? 'final' : 'open'),
    onFinal: (m: MessageRecord) => runtime?.watcher.notify(m),
  });
  const send: SendFn = async (profileId, input) => {
    try {
      const r = await ctx.session.call('messages.send', { profileId, mobile: input.mobile, content: input.content, templateId: input.templateId });
      if (r.message.outcome === 'accepted') tracker.track(r.message.id);
      return { message: r.message, failure: r.failure as FailureView | null };
    } catch (error) {
      throw asLocalError(error);
    }
  };
  runtime = createCallRuntime({ store, send, timeScale: scale, watcherPollMs: Math.max(20, 1000 * scale), ...handlers });
  const rt = runtime;
  return {
    runtime: rt,
    store,
    async close() {
      tracker.stop();
      await rt.close();
      store.close();
    },
  };
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

function parseMaps(pairs: readonly string[]): MappingSpec {
  const spec: MappingSpec = {};
  for (const p of pairs) {
    const eq = p.lastIndexOf('=');
    if (eq <= 0 || eq === p.length - 1) throw new CliFailure(EXIT.usage, 'usage', `--map expects COLUMN=mobile or COLUMN=VARIABLE, got "${p}".`);
    spec[p.slice(0, eq).trim()] = p.slice(eq + 1).trim();
  }
  return spec;
}

function duplicatePolicy(value: string | boolean | undefined): DuplicatePolicy {
  if (value === undefined || value === false) return 'none';
  if (value === true || value === 'same-text' || value === 'text') return 'same-text';
  if (value === 'same-mobile' || value === 'mobile') return 'same-mobile';
  throw new CliFailure(EXIT.usage, 'usage', `--skip-duplicates takes same-text (default) or same-mobile, got "${value}".`);
}

function reportLines(r: ValidationReport, policy: DuplicatePolicy): string {
  const t = r.totals;
  const lines = [
    `Rows: ${t.rows} · valid ${t.valid} · invalid ${t.invalid} · duplicates ${t.duplicates} (same number and text) · ${t.sameMobile} repeat a number`,
    `Mapping: mobile ← "${r.mapping.mobile}"${r.mapping.markers.map((c, i) => ` · variable ${i + 1} ← "${c}"`).join('')}`,
    `To send (${policy === 'none' ? 'duplicates kept' : policy === 'same-text' ? 'duplicates skipped' : 'one call per number'}): ${t.toSend[policy]} rows, at most ${t.units[policy]} units (charged only when answered)`,
  ];
  if (r.preview.length) lines.push('Preview:', ...r.preview.map((p) => `  row ${p.row}  ${p.mobile}  ${p.content}  (${p.length} chars, ${p.units} unit${p.units === 1 ? '' : 's'})`));
  if (r.issues.length) {
    lines.push('Issues:', ...r.issues.slice(0, 20).map((i) => `  row ${i.row}: ${i.kind}: ${i.message}`));
    const more = r.issues.length - 20 + r.issuesOmitted;
    if (more > 0) lines.push(`  ... and ${more} more (see --json)`);
  }
  return lines.join('\n');
}

function progressText(p: BatchProgress): string {
  const eta = p.etaMs === null ? '' : ` · ~${Math.max(1, Math.round(p.etaMs / 60_000))} min left`;
  return `sent ${p.sent}/${p.total - p.skipped - p.cancelled} · accepted ${p.accepted} · answered ${p.answered} · failed ${p.failed} · unknown ${p.unknown} · remaining ${p.remaining} · ${p.ratePerMinute}/min · lines ${p.governor.inUse}/${p.governor.limit}${eta}`;
}

function problemJson(i: BatchItemView) {
  return { row: i.rowNumber, mobile: i.mobile, status: i.status, code: i.code, error: i.error, messageId: i.messageId };
}

export function registerBulkCommand(program: Command, ctx: CommandContext): void {
  program
    .command('bulk')
    .description('send a template to every row of a CSV or XLSX file, under the profile\'s limits (20 calls at once and 2,000 an hour per line)')
    .argument('[file]', 'CSV (UTF-8 or GBK) or XLSX with a header row')
    .option('--template <id>', 'the template from the local library (see `callout template list`)')
    .option('--map <column=marker>', 'map a column to "mobile" or to a template variable (label or 1, 2, ...); repeatable; default: guessed', collect, [])
    .option('--dry-run', 'only read, map and validate the file: print the report, send nothing')
    .addOption(new Option('--skip-duplicates [kind]', 'leave out repeated rows: same-text (same number and text, the default) or same-mobile (one call per number)'))
    .option('--name <name>', 'a name for the batch (default: the file name)')
    .option('--resume <batch>', 'resume a paused or interrupted batch instead of importing a file')
    .option('--no-wait', 'return once every row is sent, without waiting for the last calls to end')
    .action(async (file: string | undefined, opts: { template?: string; map: string[]; dryRun?: boolean; skipDuplicates?: string | boolean; name?: string; resume?: string; wait: boolean }) => {
      const policy = duplicatePolicy(opts.skipDuplicates);
      if (opts.resume !== undefined && file !== undefined) throw new CliFailure(EXIT.usage, 'usage', 'Give either a FILE or --resume BATCH, not both.');
      if (opts.resume === undefined && file === undefined) throw new CliFailure(EXIT.usage, 'usage', 'Give the spreadsheet to send: callout bulk FILE --template ID (or --resume BATCH).');

      let report: ValidationReport | null = null;
      let prepared: ReturnType<typeof prepareRows> | null = null;
      let templateId: string | null = null;
      if (file !== undefined) {
        if (!opts.template) throw new CliFailure(EXIT.usage, 'usage', 'Give the template to fill: --template ID (see `callout template list`).');
        const template = (await ctx.session.call('templates.list', undefined)).find((t) => t.id === opts.template);
        if (!template) throw new CliFailure(EXIT.usage, 'usage', `No template "${opts.template}" in the local library; add it with \`callout template add\`.`);
        templateId = template.id;
        try {
          const sheet = await readSpreadsheet(file);
          const spec = opts.map.length ? parseMaps(opts.map) : suggestMapping(sheet, template);
          prepared = prepareRows(sheet, template, resolveMapping(sheet.columns, template, spec), { previewCount: 5, maxIssues: 1000 });
          report = prepared.report;
        } catch (error) {
          if (error instanceof ImportError) throw new CliFailure(EXIT.usage, error.code, error.message);
          throw error;
        }
        if (opts.dryRun) {
          if (ctx.json()) ctx.io.stdout(`${JSON.stringify(report)}\n`);
          else ctx.io.stdout(`${reportLines(report, policy)}\n`);
          return;
        }
        if (report.totals.toSend[policy] === 0) printAndFail(ctx, report, reportLines(report, policy), new CliFailure(EXIT.usage, 'nothing-to-send', 'No row of this file can be sent; see the report.'));
      } else if (opts.dryRun) throw new CliFailure(EXIT.usage, 'usage', '--dry-run needs a FILE.');

      const profileId = await ctx.session.providerProfile(ctx.flags());
      const line = progressLine(ctx);
      const { runtime, close } = openCliRuntime(ctx, { onBulkProgress: (p) => line.update(progressText(p)) });
      let batchId = 0;
      // Ctrl-C pauses: sends in flight finish and are recorded; `--resume` continues.
      const stopOnSignal = () => {
        try {
          if (batchId) runtime.queue.pause(batchId);
        } catch {
          // not running any more
        }
      };
      process.once('SIGINT', stopOnSignal);
      try {
        const { queue } = runtime;
        if (opts.resume !== undefined) {
          batchId = Number(opts.resume.replace(/^#/, ''));
          if (!Number.isInteger(batchId) || batchId <= 0) throw new CliFailure(EXIT.usage, 'usage', `--resume takes a batch number, got "${opts.resume}".`);
          queue.recover();
          const batch = (() => {
            try {
              return queue.get(batchId);
            } catch {
              throw new CliFailure(EXIT.usage, 'not-found', `There is no batch #${batchId}.`);
            }
          })();
          if (batch.profile !== profileId) throw new CliFailure(EXIT.usage, 'usage', `Batch #${batchId} was made for profile "${batch.profile}"; pass the same provider flags (--profile or --base-url/--api-id) to resume it.`);
          templateId = batch.templateId;
        } else {
          const batch = queue.create({ profileId, templateId, name: opts.name?.trim() || file!.split(/[\\/]/).pop()!, rows: prepared!.rows, duplicates: policy });
          batchId = batch.id;
        }
        try {
          queue.start(batchId);
        } catch (error) {
          if (error instanceof BulkError) throw new CliFailure(EXIT.usage, error.code, error.message);
          throw error;
        }
        let p = await queue.whenStopped(batchId);
        if (opts.wait) p = await queue.whenCallsEnded(batchId);
        line.end();
        const problems = [...queue.items(batchId, { status: 'unknown', limit: 10_000 }), ...queue.items(batchId, { status: 'rejected', limit: 10_000 })].sort((a, b) => a.rowNumber - b.rowNumber);
        const value = {
          batchId,
          templateId,
          status: p.status,
          pausedReason: p.pausedReason,
          message: p.statusMessage,
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
          problems: problems.map(problemJson),
        };
        const human = [
          `Batch #${batchId}: ${p.status}${p.pausedReason ? ` (${p.pausedReason})` : ''}`,
          `  sent ${p.sent} · accepted ${p.accepted} · answered ${p.answered} · not answered ${p.notAnswered}${p.calling ? ` · still ringing ${p.calling}` : ''} · rejected ${p.rejected} · unknown ${p.unknown} · skipped ${p.skipped}${p.cancelled ? ` · cancelled ${p.cancelled}` : ''}${p.remaining ? ` · remaining ${p.remaining}` : ''}`,
          ...(p.statusMessage ? [`  ${p.statusMessage}`] : []),
          ...problems.slice(0, 20).map((i) => `  row ${i.rowNumber} ${maskMobile(i.mobile)}: ${i.status}${i.code ? ` (code ${i.code})` : ''}${i.error ? ` ${i.error}` : ''}`),
          ...(p.status === 'paused' ? [`Resume with: callout bulk --resume ${batchId}`] : []),
        ].join('\n');
        if (p.status === 'done' && p.unknown === 0 && p.rejected === 0) {
          if (ctx.json()) ctx.io.stdout(`${JSON.stringify(value)}\n`);
          else ctx.io.stdout(`${human}\n`);
          return;
        }
        const reason = p.pausedReason;
        let failure: CliFailure;
        if (p.status === 'done' && p.unknown > 0) failure = new CliFailure(EXIT.transport, 'unknown-outcomes', `${p.unknown} item${p.unknown === 1 ? '' : 's'} of batch #${batchId} had an unknown outcome and were not resent: check them before sending again.`);
        else if (p.status === 'done') failure = new CliFailure(EXIT.rejected, 'rejected-items', `${p.rejected} item${p.rejected === 1 ? ' was' : 's were'} rejected by the provider (batch #${batchId}).`);
        else if (reason === 'provider-unreachable' || reason === 'too-many-unknown') failure = new CliFailure(EXIT.transport, reason, `Batch #${batchId} paused: ${p.statusMessage}`);
        else if (reason === 'user' || reason === 'closed') failure = new CliFailure(1, 'paused', `Batch #${batchId} paused; resume with: callout bulk --resume ${batchId}`);
        else failure = new CliFailure(EXIT.rejected, reason ?? p.status, `Batch #${batchId} ${p.status}: ${p.statusMessage ?? ''}`.trim());
        printAndFail(ctx, value, human, failure);
      } finally {
        process.removeListener('SIGINT', stopOnSignal);
        line.end();
        await close();
      }
    });
}
