// `callout dial CONTACT... [--template ID --var NAME=VALUE ...] [--until-answered N --pause S] [--override]`
// Calls a contact (or a number); with several, an escalation list: the next is called only when the
// previous did not answer. Through the handler table (dial.start) and the dialProgress push.
import { Command, Option } from 'commander';
import type { DialProgress, DialRefusal, DialRequest, DialResult, DialTarget } from '../../common/bulk-types';
import { unmappedValue } from '../../common/reasons';
import { maskMobile } from '../../common/domain/mobile';
import { formatClock } from '../dial/limits';
import { progressLine } from './bulk-command';
import { CliFailure, DEFAULT_WAIT_TIMEOUT_MS, EXIT, usage } from './io';
import { durationText, type CommandContext } from './context';
import { valuesFromVars } from './template-vars';
import type { CliWords } from './text';
import { systemClock, type TimerHandle } from '../clock';

const MAX_ATTEMPTS = 10;
const collect = (value: string, previous: string[] = []) => [...previous, value];

/** A per-number limit or quiet hours, said from the catalog (refusal.*). */
export function refusalText(words: CliWords, r: DialRefusal, now = systemClock.now()): string {
  const { t } = words;
  const rule =
    r.limit === 'quiet-hours'
      ? t('refusal.quiet', { mobile: r.mobile })
      : r.max === 0
        ? t('refusal.never')
        : t(`refusal.${r.limit}`, { max: r.max, mobile: r.mobile, count: r.count ?? 0 });
  const plan = r.plan ? t('refusal.plan', { mobile: r.mobile, attempts: r.plan.attempts, call: r.plan.call }) : '';
  const frees = Number.isFinite(r.freesAt)
    ? t('refusal.frees', { time: formatClock(r.freesAt, now), in: t('cli:dial.inMinutes', { count: Math.max(1, Math.ceil((r.freesAt - now) / 60_000)) }) })
    : '';
  return words.sentences(rule, plan, frees);
}

function who(target: { name: string | null; mobile: string }): string {
  return target.name ? `${target.name} (${maskMobile(target.mobile)})` : maskMobile(target.mobile);
}

/** The result in words, from the catalog (dialResult.*). */
export function resultText(words: CliWords, r: DialResult): string {
  const { t } = words;
  if (r.status === 'answered' && r.answered) {
    const attempt = r.attempts.filter((a) => a.targetIndex === r.answered!.targetIndex).length;
    return t('dialResult.answered', { who: who(r.answered), attempt });
  }
  if (r.status === 'not-answered') return t('dialResult.not-answered', { count: r.attempts.length });
  if (r.status === 'refused') return words.sentences(t('dialResult.refused'), ...r.refusals.map((x) => refusalText(words, x)));
  if (r.status === 'failed') {
    const last = r.attempts.at(-1);
    const code = last?.code ?? null;
    if (code === 401 || code === 402 || code === 403) return t(`dialResult.failedCode.${code}`);
    const why = last?.reason ? words.reason(last.reason) : '';
    return words.sentences(code !== null ? t('dialResult.failedCode.other', { code }) : t('dialResult.failed'), why);
  }
  return t(`dialResult.${r.status}`);
}

/** What the run does next and when ("next: 李雷 at 10:36:30"), or, while a call rings, what follows if it is not answered. */
export function nextText(words: CliWords, p: DialProgress, now = systemClock.now()): string {
  const { t } = words;
  const n = p.next;
  if (!n) return '';
  const again = n.targetIndex === p.targetIndex;
  const of = again && p.maxAttempts > 1 ? ` ${t('cli:dial.attemptOf', { attempt: n.attempt, max: p.maxAttempts })}` : '';
  if (n.at !== null) return t(again ? 'cli:dial.nextAgainAt' : 'cli:dial.nextAt', { who: who(n.target), time: formatClock(n.at, now), of });
  return again ? t('cli:dial.ifNoAnswerAgain', { who: who(n.target), seconds: n.afterSeconds ?? 0, of }) : t('cli:dial.ifNoAnswer', { who: who(n.target) });
}

export function progressText(words: CliWords, p: DialProgress, now = systemClock.now()): string {
  const { t } = words;
  const of = p.maxAttempts > 1 ? ` ${t('cli:dial.attemptOf', { attempt: p.attempt, max: p.maxAttempts })}` : '';
  const next = nextText(words, p, now);
  switch (p.phase) {
    case 'calling':
      return [t('cli:dial.calling', { who: who(p.target), of, state: p.state ? ` · ${t(`state.${p.state}`)}` : '' }), next].filter(Boolean).join(' · ');
    case 'ended':
      return [`${who(p.target)}: ${p.state ? t(`state.${p.state}`) : t('cli:dial.ended')}`, next].filter(Boolean).join(' · ');
    case 'waiting':
      return next || t('cli:dial.waiting', { who: who(p.target), time: p.nextAttemptAt ? formatClock(p.nextAttemptAt, now) : '?' });
    case 'refused':
      return `${who(p.target)}: ${words.sentences(...p.refusals.map((r) => refusalText(words, r)))}`;
    case 'next-target':
      return t('cli:dial.next', { who: who(p.target) });
    default:
      return p.result ? resultText(words, p.result) : '';
  }
}

function resultJson(words: CliWords, r: DialResult) {
  return {
    status: r.status,
    message: resultText(words, r),
    answered: r.answered && { name: r.answered.name, mobile: r.answered.mobile, contactId: r.answered.contactId, messageId: r.answered.messageId },
    attempts: r.attempts.map((a) => ({
      target: a.targetIndex,
      attempt: a.attempt,
      mobile: a.mobile,
      messageId: a.messageId,
      outcome: a.outcome,
      state: a.state,
      code: a.code,
    })),
    refusals: r.refusals.map((x) => ({
      limit: x.limit,
      mobile: x.mobile,
      count: x.count,
      max: x.max,
      freesAt: new Date(x.freesAt).toISOString(),
      message: refusalText(words, x),
    })),
  };
}

export function registerDialCommand(program: Command, ctx: CommandContext): void {
  const { t } = ctx.words;
  program
    .command('dial')
    .description(t('cli:help.dial'))
    .argument('<contact...>', t('cli:help.contact'))
    .option('--template <id>', t('cli:help.dialTemplate'))
    .option('--var <name=value>', t('cli:help.dialVar'), collect, [])
    .option('--content <text>', t('cli:help.content'))
    .addOption(
      new Option('--until-answered <n>', t('cli:help.untilAnswered', { max: MAX_ATTEMPTS })).argParser(ctx.parse.int('--until-answered', 1, MAX_ATTEMPTS)),
    )
    .addOption(new Option('--pause <seconds>', t('cli:help.pause')).argParser(ctx.parse.int('--pause', 0, 3600)))
    .option('--override', t('cli:help.override'))
    .addOption(new Option('--wait-timeout <duration>', t('cli:help.dialWaitTimeout')).argParser(ctx.parse.duration('--wait-timeout')))
    .action(
      async (
        refs: string[],
        opts: { template?: string; var: string[]; content?: string; untilAnswered?: number; pause?: number; override?: boolean; waitTimeout?: number },
      ) => {
        const { session, words } = ctx;
        const waitMs = opts.waitTimeout ?? DEFAULT_WAIT_TIMEOUT_MS;
        session.waitMs = waitMs;
        if (opts.content !== undefined && (opts.template !== undefined || opts.var.length)) throw usage('contentOrTemplate');
        const profileId = await session.providerProfile(ctx.flags());
        // A one-off dialect without a status query: nothing could follow the calls (no listener without a saved profile).
        const one = ctx.flags().dialect;
        if (one !== undefined && ctx.flags().profile === undefined && !(await session.dialect(one)).status) throw usage('dialNeedsFollow');
        const targets: NonNullable<DialRequest['targets']> = [];
        let firstContact: { lastTemplateId: string | null } | null = null;
        for (const ref of refs) {
          try {
            const c = await session.call('contacts.resolve', { query: ref });
            targets.push({ contactId: c.id });
            firstContact ??= c;
          } catch (error) {
            // Not a contact: a number is called as it is.
            if (!(error instanceof CliFailure) || error.kind !== 'not-found' || !/^[+\d\s()-]{7,}$/.test(ref.trim())) throw error;
            targets.push({ mobile: ref });
          }
        }
        const templateId = opts.content !== undefined ? null : (opts.template ?? firstContact?.lastTemplateId ?? null);
        if (opts.content === undefined && !templateId) throw usage('dialNeedsTemplate');
        let values: string[] | undefined;
        if (templateId && opts.var.length) {
          const template = (await session.call('templates.list', undefined)).find((x) => x.id === templateId);
          if (!template) throw usage('noTemplate', { id: templateId });
          values = valuesFromVars(template, opts.var);
        }
        const req: DialRequest = {
          profileId,
          targets,
          templateId,
          values,
          content: opts.content,
          attempts: opts.untilAnswered ?? 1,
          ...(opts.pause !== undefined ? { pauseSeconds: opts.pause } : {}),
          override: opts.override ?? false,
        };

        const line = progressLine(ctx);
        let runId = '';
        let resolveDone: (r: DialResult) => void = () => undefined;
        const done = new Promise<DialResult>((resolve) => (resolveDone = resolve));
        /** The run's calls (message id → who), and the value each was last said not to be recognised. */
        const calls = new Map<number, DialTarget>();
        const saidUnmapped = new Map<number, string>();
        // A call only the provider's receipts tell about says so once, while it waits.
        const receiptsOnly = await session.followsByReceiptsOnly(profileId);
        // Each call's end is waited for at most waitMs (on the session's clock): then the run stops,
        // nobody else is called (the call may still be going on), and the command says why.
        let gaveUp: { messageId: number; target: DialTarget } | null = null;
        let waiting: { messageId: number; timer: TimerHandle } | null = null;
        const stopWaiting = () => {
          waiting?.timer.cancel();
          waiting = null;
        };
        const off = await session.on('dialProgress', (p) => {
          if (runId && p.runId !== runId) return;
          if (p.phase === 'calling' && p.messageId !== null && waiting?.messageId !== p.messageId) {
            stopWaiting();
            const messageId = p.messageId;
            const target = p.target;
            waiting = {
              messageId,
              timer: session.clock.setTimeout(() => {
                gaveUp = { messageId, target };
                if (runId) void session.call('dial.cancel', { runId }).catch(() => undefined);
              }, waitMs),
            };
          } else if (p.phase !== 'calling') stopWaiting();
          if (p.messageId !== null && !calls.has(p.messageId)) {
            calls.set(p.messageId, p.target);
            if (receiptsOnly && p.phase === 'calling' && !ctx.json()) {
              line.end();
              ctx.io.stderr(`${t('cli:dial.waitingReceipt', { who: who(p.target) })}\n`);
            }
          }
          line.update(progressText(words, p));
          if (p.phase === 'done' && p.result) resolveDone(p.result);
        });
        // A state value the dialect does not map is said once, when it arrives (never guessed).
        const offUpdates = await session.on('messageUpdated', (m) => {
          const target = calls.get(m.id);
          const value = unmappedValue(m.reason);
          if (!target || value === null || saidUnmapped.get(m.id) === value) return;
          saidUnmapped.set(m.id, value);
          if (ctx.json()) return;
          line.end();
          ctx.io.stderr(`${t('cli:dial.unmapped', { who: who(target), state: t(`state.${m.state}`), value })}\n`);
        });
        const stopOnSignal = () => {
          if (runId) void session.call('dial.cancel', { runId }).catch(() => undefined);
        };
        process.once('SIGINT', stopOnSignal);
        let result: DialResult;
        try {
          const started = await session.call('dial.start', req);
          if (!started.started) {
            result = { runId: '', status: 'refused', answered: null, targets: started.plan.targets, attempts: [], refusals: started.plan.refusals };
          } else {
            runId = started.runId;
            result = await done;
          }
        } finally {
          stopWaiting();
          off();
          offUpdates();
          process.removeListener('SIGINT', stopOnSignal);
          line.end();
        }
        const value = resultJson(words, result);
        const stopped = gaveUp as { messageId: number; target: DialTarget } | null;
        if (stopped && result.status === 'cancelled') {
          const m = (await session.call('messages.get', { id: stopped.messageId })).message;
          const said = t('cli:dial.gaveUp', {
            after: durationText(words, waitMs),
            who: who(stopped.target),
            state: t(`state.${m.state}`),
            id: m.id,
          });
          ctx.printAndFail(
            { ...value, status: 'gave-up', message: said, gaveUp: { messageId: m.id, state: m.state, waitedSeconds: waitMs / 1000 } },
            null,
            new CliFailure(EXIT.gaveUp, 'wait-timeout', { key: 'cli:plain', params: { text: said } }, { messageId: m.id, waitedSeconds: waitMs / 1000 }),
          );
        }
        const human = () =>
          [
            resultText(words, result),
            ...result.attempts.map(
              (a) =>
                `  ${t('cli:dial.attemptLine', { mobile: maskMobile(a.mobile), attempt: a.attempt, outcome: a.outcome === 'not-sent' ? t('cli:dial.notSent') : t(`csv.outcome.${a.outcome}`), state: a.state ? `/${t(`state.${a.state}`)}` : '', message: a.messageId ? ` · ${t('cli:messageRef', { id: a.messageId })}` : '' })}`,
            ),
          ].join('\n');
        if (result.status === 'answered') {
          ctx.emit(value, human);
          return;
        }
        const failures: Record<Exclude<DialResult['status'], 'answered'>, CliFailure> = {
          'not-answered': new CliFailure(EXIT.invalid, 'not-answered', { key: 'cli:plain', params: { text: resultText(words, result) } }),
          refused: new CliFailure(EXIT.usage, 'dial-limited', { key: 'cli:dial.limited', params: { text: resultText(words, result) } }),
          failed: new CliFailure(EXIT.rejected, 'failed', { key: 'cli:plain', params: { text: resultText(words, result) } }),
          unknown: new CliFailure(EXIT.transport, 'unknown', { key: 'cli:plain', params: { text: resultText(words, result) } }),
          cancelled: new CliFailure(EXIT.invalid, 'cancelled', { key: 'cli:plain', params: { text: resultText(words, result) } }),
        };
        ctx.printAndFail(value, human, failures[result.status]);
      },
    );
}
