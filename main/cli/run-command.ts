// `callout run COLLECTION [--env NAME] [--var NAME=VALUE ...] [--request NAME ...] [--bail]`
// Runs a saved collection (by name or #id), or a collection file (Postman v2.1, see
// docs/collections.md; `-` reads it from standard input), through the handler table
// (collections.run) and its runProgress push, and exits with a status a CI job can read: 0 every assertion passed, 1 an assertion failed, 2 a
// request could not be sent (a variable without a value...) or a usage error, 4 a request got no
// reply (transport failure: never resent).
import { closeSync, existsSync, openSync, statSync, writeFileSync } from 'node:fs';
import { Option, type Command } from 'commander';
import type { RunResultView, RunView, Variable } from '../../common/contract';
import { progressLine } from './bulk-command';
import type { CommandContext } from './context';
import { CliFailure, EXIT, usage } from './io';
import { readInput, STDIN } from './input';
import type { CliWords } from './text';
import { failedAssertionText, REPORT_FORMATS, runReport, type ReportFormat } from './run-report';

const collect = (value: string, previous: string[] = []) => [...previous, value];

function variablesFrom(pairs: readonly string[]): Variable[] {
  return pairs.map((p) => {
    const eq = p.indexOf('=');
    if (eq <= 0) throw usage('runVarShape', { value: p });
    return { name: p.slice(0, eq).trim(), value: p.slice(eq + 1) };
  });
}

function resultLines(words: CliWords, r: RunResultView): string[] {
  const { t } = words;
  const mark = r.outcome === 'passed' ? '✓' : r.outcome === 'failed' ? '✗' : '!';
  const what = r.status !== null ? `${r.status}${r.providerCode !== null ? ` · ${t('provider.short', { code: r.providerCode })}` : ''}` : '';
  const ms = r.ms !== null ? ` (${Math.round(r.ms)} ms)` : '';
  const lines = [`${mark} ${r.name}  ${what}${ms}${r.exchangeId !== null ? `  ${t('cli:run.exchangeRef', { id: r.exchangeId })}` : ''}`];
  if (r.problem) lines.push(`    ${words.error(r.problem)}`);
  if (r.failure) lines.push(`    ${words.reason(r.failure.reason)}`);
  for (const a of r.assertions) if (!a.passed) lines.push(`    ${failedAssertionText(words, a)}`);
  return lines;
}

/** The exit status of a run: 4 a request got no reply, 2 one could not be sent, 1 an assertion failed, 0 all passed. */
export function runExitCode(run: RunView): number {
  if (run.results.some((r) => r.outcome === 'error' && r.problem === null)) return EXIT.transport;
  if (run.results.some((r) => r.outcome === 'error')) return EXIT.usage;
  if (run.results.some((r) => r.outcome === 'failed')) return EXIT.invalid;
  return EXIT.ok;
}

/** `--reporter junit|json FILE`: two values per use (commander's variadic option), repeatable. */
function reporterOption(description: string): Option {
  const option = new Option('--reporter <junit|json> <file>', description);
  option.variadic = true;
  return option;
}

/** The reports asked for: a format and a file, in pairs. */
function reportsFrom(values: readonly string[]): { format: ReportFormat; file: string }[] {
  if (values.length % 2 !== 0) throw usage('reporterShape', { values: values.join(' ') });
  const reports: { format: ReportFormat; file: string }[] = [];
  for (let i = 0; i < values.length; i += 2) {
    const format = values[i]!;
    const file = values[i + 1]!;
    if (!(REPORT_FORMATS as readonly string[]).includes(format))
      throw usage('oneOf', { flag: '--reporter', allowed: REPORT_FORMATS.join(', '), value: format });
    if (file === STDIN) throw usage('reporterStdout');
    reports.push({ format: format as ReportFormat, file });
  }
  return reports;
}

export function registerRunCommand(program: Command, ctx: CommandContext): void {
  const { t } = ctx.words;
  program
    .command('run')
    .description(t('cli:help.run'))
    // Optional for commander, so that a --reporter written before it (which takes it as a value)
    // is said in the user's words; the usage line still says it is needed.
    .argument('[collection]', t('cli:help.collection'))
    .usage('[options] <collection>')
    .option('--env <name>', t('cli:help.env'))
    .option('--var <name=value>', t('cli:help.runVar'), collect, [])
    .option('--request <name>', t('cli:help.runRequest'), collect, [])
    .option('--bail', t('cli:help.bail'))
    .addOption(reporterOption(t('cli:help.reporter')))
    .action(async (ref: string | undefined, opts: { env?: string; var: string[]; request: string[]; bail?: boolean; reporter?: string[] }) => {
      const { session, words, io } = ctx;
      const reports = reportsFrom(opts.reporter ?? []);
      if (ref === undefined) throw usage('needCollection');
      const variables = variablesFrom(opts.var);
      // Each report's file is created now: one that cannot be written is refused before anything is sent.
      for (const r of reports) {
        try {
          closeSync(openSync(r.file, 'w'));
        } catch (error) {
          throw usage('cannotWriteReport', { name: r.file, detail: (error as NodeJS.ErrnoException).code ?? String(error) });
        }
      }
      // A file on disk is imported for this run and removed after it (the run's results stay in the history).
      let temporary: number | null = null;
      let collectionId: number;
      // `-` is a collection file on standard input.
      if (ref === STDIN || (existsSync(ref) && statSync(ref).isFile())) {
        const text = (await readInput(io, ref)).toString('utf8');
        const imported = await session.call('collections.import', { text });
        temporary = imported.collection.id;
        collectionId = temporary;
        for (const w of imported.warnings) io.stderr(`callout: ${t(`workbench.fileWarning.${w.code}`, w.params)}\n`);
      } else {
        const list = await session.call('collections.list', undefined);
        const byId = /^#?\d+$/.test(ref) ? list.find((c) => c.id === Number(ref.replace('#', ''))) : undefined;
        const found = byId ?? list.find((c) => c.name.toLowerCase() === ref.trim().toLowerCase());
        if (!found) throw usage('noCollection', { name: ref, names: list.map((c) => c.name).join(', ') || '—' }, 'not-found');
        collectionId = found.id;
      }
      try {
        let environmentId: number | null = null;
        let profileId: string | undefined;
        if (opts.env !== undefined) {
          const envs = await session.call('environments.list', undefined);
          const env = envs.find((e) => e.name.toLowerCase() === opts.env!.trim().toLowerCase());
          if (!env) throw usage('noEnvironment', { name: opts.env, names: envs.map((e) => e.name).join(', ') || '—' }, 'not-found');
          environmentId = env.id;
        }
        const flags = ctx.flags();
        const named = flags.profile !== undefined || flags.baseUrl !== undefined || io.env.CALLOUT_BASE_URL !== undefined;
        // The environment names its profile; provider flags (or CALLOUT_BASE_URL) override it.
        if (named || environmentId === null) profileId = await session.providerProfile(flags);

        let requestIds: number[] | undefined;
        if (opts.request.length) {
          const collection = await session.call('collections.get', { id: collectionId });
          requestIds = opts.request.map((name) => {
            const r = collection.requests.find((x) => x.name === name) ?? collection.requests.find((x) => x.name.toLowerCase() === name.toLowerCase());
            if (!r) throw usage('noRequest', { name, names: collection.requests.map((x) => x.name).join(', ') });
            return r.id;
          });
        }

        const line = progressLine(ctx);
        const off = await session.on('runProgress', (p) => {
          if (p.result) line.update(t('cli:run.progress', { done: p.done, total: p.total, name: p.result.name }));
        });
        let run: RunView;
        try {
          run = await session.call('collections.run', { id: collectionId, environmentId, profileId, requestIds, stopOnFailure: opts.bail ?? false, variables });
        } finally {
          off();
          line.end();
        }
        const human = () =>
          [
            ...run.results.flatMap((r) => resultLines(words, r)),
            t('cli:run.summary', { name: run.collectionName, passed: run.passed, failed: run.failed, errored: run.errored, id: run.id }),
          ].join('\n');
        for (const r of reports) {
          try {
            writeFileSync(r.file, runReport(r.format, run, words));
          } catch (error) {
            // The run happened (it is in History); only its report is missing.
            throw new CliFailure(EXIT.usage, 'report-not-written', {
              key: 'cli:run.reportNotWritten',
              params: { name: r.file, detail: (error as NodeJS.ErrnoException).code ?? String(error), id: run.id },
            });
          }
        }
        const code = runExitCode(run);
        if (code === EXIT.ok) {
          ctx.emit(run, human);
          return;
        }
        const kind = code === EXIT.invalid ? 'assertion-failed' : code === EXIT.transport ? 'no-reply' : 'not-sent';
        ctx.printAndFail(run, human, new CliFailure(code, kind, { key: `cli:run.failed.${kind}`, params: { failed: run.failed, errored: run.errored } }));
      } finally {
        if (temporary !== null) await session.call('collections.remove', { id: temporary }).catch(() => undefined);
      }
    });
}
