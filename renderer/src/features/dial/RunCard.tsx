// One quick-dial run, live: who is being called (the escalation order when there are several),
// which attempt, the call ringing and how it ended, what the run does next and when ("next: 李雷 at
// 10:36:30"; while a call rings, what follows if it is not answered), and the result. A run in progress can be cancelled (a call already ringing cannot be recalled).
import { useEffect, useState } from 'react';
import { Alert, Button, Card, Flex, Steps, Tag, Typography } from 'antd';
import { CloseOutlined, PhoneOutlined, StopOutlined } from '@ant-design/icons';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { DialResult } from '../../../../common/bulk-types';
import { describeError, describeReason } from '../../app/api';
import { useCancelDial } from './use-dial-data';
import { currentLanguage } from '../../i18n';
import { formatClock, formatIn, refusalText, RESULT_TYPES, runTitleKey, STATE_COLORS } from './dial-model';
import { dialRuns, type AttemptView, type RunView } from './dial-store';
import { useFeedback } from '../../app/feedback';
import { withAside } from '../../i18n/punctuation';

function useNow(active: boolean): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = window.setInterval(() => setNow(Date.now()), 250);
    return () => window.clearInterval(timer);
  }, [active]);
  return now;
}

export function RunCard({ run }: { run: RunView }) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  const { message } = useFeedback();
  const cancelRun = useCancelDial();
  const cancelling = cancelRun.isPending;
  const p = run.progress;
  const phase = p?.phase ?? 'calling';
  const done = phase === 'done';
  const now = useNow(phase === 'waiting');
  const targets = run.targets.length ? run.targets : p ? [p.target] : [];
  const current = p?.targetIndex ?? 0;
  const target = targets[current] ?? p?.target ?? null;
  const whoOf = (x: { name: string | null; mobile: string } | null | undefined) => (x ? (x.name ? `${x.name} · ${x.mobile}` : x.mobile) : '');
  const attemptNow = run.attempts.filter((a) => a.targetIndex === current).at(-1);
  /** A person before the current one did not answer (else the run would have stopped there). */
  const targetStatus = (i: number): 'wait' | 'process' | 'finish' | 'error' => {
    if (done && p?.result?.answered) return i === p.result.answered.targetIndex ? 'finish' : i < p.result.answered.targetIndex ? 'error' : 'wait';
    if (done) return i <= current ? 'error' : 'wait';
    return i < current ? 'error' : i === current ? 'process' : 'wait';
  };

  const cancel = () => cancelRun.mutate(run.runId, { onError: (e) => void message.error(describeError(t, e)) });

  const titleText =
    targets.length > 1
      ? t('dial.run.escalationTitle', { names: targets.map((x) => x.name ?? x.mobile).join(' → ') })
      : t(`dial.run.${runTitleKey(done, p?.result?.status)}`, { who: whoOf(target) });

  let line: string;
  if (!p) line = t('dial.run.starting');
  else if (phase === 'calling')
    line = attemptNow?.messageId
      ? attemptNow.state === 'calling'
        ? t('dial.run.ringing', { who: whoOf(p.target) })
        : t('dial.run.placed', { who: whoOf(p.target) })
      : t('dial.run.dialling', { who: whoOf(p.target) });
  else if (phase === 'ended') line = t('dial.run.ended', { who: whoOf(p.target), state: t(`state.${p.state ?? 'unknown'}`, { ns: 'msg' }) });
  else if (phase === 'waiting')
    line = p.nextAttemptAt
      ? t('dial.run.waiting', { in: formatIn(t, p.nextAttemptAt - now), time: formatClock(lang, p.nextAttemptAt, now) })
      : t('dial.run.waitingShort');
  else if (phase === 'next-target') line = t('dial.run.nextTarget', { who: whoOf(p.target) });
  else if (phase === 'refused') line = t('dial.run.refusedNow', { who: whoOf(p.target) });
  else line = '';
  const next = !done && p ? nextLine(t, lang, run, p, whoOf) : null;

  return (
    <Card
      size="small"
      className="dial-run"
      data-testid="run-card"
      data-run-id={run.runId}
      data-phase={phase}
      data-attempt={p?.attempt ?? 0}
      data-max-attempts={run.maxAttempts}
      data-attempts={run.attempts.length}
      data-status={p?.result?.status ?? ''}
      title={
        <Flex align="center" gap={8} style={{ minWidth: 0 }}>
          <PhoneOutlined aria-hidden className={!done ? 'dial-ringing' : undefined} />
          <Typography.Text strong ellipsis>
            {titleText}
          </Typography.Text>
        </Flex>
      }
      extra={
        <Flex gap={8} align="center">
          <Tag color={done ? (p?.result?.status === 'answered' ? 'success' : 'default') : 'processing'} data-testid="run-phase">
            {done && p?.result ? t(`dialResult.tag.${p.result.status}`, { ns: 'msg' }) : t(`dial.phase.${phase}`)}
          </Tag>
          {done ? (
            <Button
              size="small"
              type="text"
              icon={<CloseOutlined />}
              aria-label={t('dial.run.dismiss')}
              onClick={() => dialRuns.dismiss(run.runId)}
              data-testid="run-dismiss"
            />
          ) : (
            <Button size="small" danger icon={<StopOutlined />} loading={cancelling} onClick={() => void cancel()} data-testid="run-cancel">
              {t('dial.run.cancel')}
            </Button>
          )}
        </Flex>
      }
    >
      {targets.length > 1 ? (
        <Steps
          size="small"
          current={current}
          style={{ marginBottom: 12 }}
          items={targets.map((x, i) => ({ title: x.name ?? x.mobile, content: x.name ? x.mobile : undefined, status: targetStatus(i) }))}
        />
      ) : null}

      {!done ? (
        <div role="status" aria-live="polite" className="dial-run-line" data-testid="run-line">
          <Typography.Text strong>{t('dial.run.attempt', { attempt: Math.max(1, p?.attempt ?? 1), max: run.maxAttempts })}</Typography.Text>
          <span> · {line}</span>
        </div>
      ) : null}

      {next ? (
        <Typography.Text
          type="secondary"
          className="dial-run-next"
          data-testid="run-next"
          data-next-target={p?.next?.targetIndex ?? ''}
          data-next-at={p?.next?.at ?? ''}
          style={{ display: 'block' }}
        >
          {next}
        </Typography.Text>
      ) : null}

      {phase === 'refused' && p?.refusals.length ? (
        <ul className="dial-refusals">
          {p.refusals.map((r, i) => {
            const text = refusalText(t, lang, r, undefined, targets.find((x) => x.mobile === r.mobile)?.name ?? null);
            return (
              <li key={i}>
                {text.title} {text.plan} <Typography.Text type="secondary">{text.frees}</Typography.Text>
              </li>
            );
          })}
        </ul>
      ) : null}

      {done && p?.result ? <ResultBanner result={p.result} /> : null}

      {run.attempts.length ? (
        <ol className="dial-attempts" aria-label={t('dial.run.attemptsLabel')} data-testid="run-attempts">
          {run.attempts.map((a) => (
            <AttemptRow key={`${a.targetIndex}-${a.attempt}`} attempt={a} showWho={targets.length > 1} />
          ))}
        </ol>
      ) : null}
    </Card>
  );
}

/** What the run does next and when; while a call rings, what follows if nobody answers (or that nobody else is called). */
function nextLine(
  t: TFunction,
  lang: ReturnType<typeof currentLanguage>,
  run: RunView,
  p: NonNullable<RunView['progress']>,
  whoOf: (x: { name: string | null; mobile: string }) => string,
): string | null {
  const n = p.next;
  if (!n) return p.phase === 'calling' && p.messageId !== null && run.targets.length > 1 ? t('dial.run.nextNone') : null;
  const again = n.targetIndex === p.targetIndex;
  const params = { who: whoOf(n.target), attempt: n.attempt, max: run.maxAttempts };
  if (n.at !== null) return t(again ? 'dial.run.nextAgain' : 'dial.run.next', { ...params, time: formatClock(lang, n.at) });
  return again ? t('dial.run.ifNoAnswerAgain', { ...params, seconds: n.afterSeconds ?? 0 }) : t('dial.run.ifNoAnswer', params);
}

function AttemptRow({ attempt, showWho }: { attempt: AttemptView; showWho: boolean }) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  const state = attempt.state;
  const label = state === null ? t('dial.sending') : t(`state.${state}`, { ns: 'msg' });
  return (
    <li data-testid="run-attempt" data-attempt={attempt.attempt} data-target={attempt.targetIndex} data-state={state ?? ''} data-ended={attempt.ended}>
      <Typography.Text type="secondary" className="dial-attempt-time">
        {formatClock(lang, attempt.startedAt)}
      </Typography.Text>
      <span>{t('dial.run.attemptShort', { attempt: attempt.attempt })}</span>
      {showWho ? <span className="dial-attempt-who">{attempt.name ?? attempt.mobile}</span> : null}
      <Tag color={state ? STATE_COLORS[state] : 'processing'} style={{ marginInlineEnd: 0 }}>
        {label}
      </Tag>
      {attempt.reason ? <Typography.Text type="secondary">{describeReason(t, attempt.reason)}</Typography.Text> : null}
    </li>
  );
}

function ResultBanner({ result }: { result: DialResult }) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  const who = result.answered ? (result.answered.name ? withAside(lang, result.answered.name, result.answered.mobile) : result.answered.mobile) : '';
  const answeredAttempt = result.answered ? result.attempts.filter((a) => a.targetIndex === result.answered!.targetIndex).length : 0;
  const body =
    result.status === 'answered'
      ? t('dialResult.answered', { ns: 'msg', who, attempt: answeredAttempt })
      : result.status === 'not-answered'
        ? t('dialResult.not-answered', { ns: 'msg', count: result.attempts.length })
        : result.status === 'failed'
          ? failedText(t, result)
          : t(`dialResult.${result.status}`, { ns: 'msg' });
  return (
    <Alert
      type={RESULT_TYPES[result.status]}
      showIcon
      title={body}
      data-testid="run-result"
      data-status={result.status}
      style={{ marginBottom: 8 }}
      role="status"
    />
  );
}

/** Why the provider refused, from the code of the last attempt (402 balance, 403 template, 401 credentials). */
function failedText(t: TFunction, result: DialResult): string {
  const code = result.attempts.at(-1)?.code ?? null;
  if (code === 401 || code === 402 || code === 403) return t(`dialResult.failedCode.${code}`, { ns: 'msg' });
  if (code !== null) return t('dialResult.failedCode.other', { ns: 'msg', code });
  return t('dialResult.failed', { ns: 'msg' });
}
