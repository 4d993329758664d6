// The Send screen: the form on the left; on the right the balance, the live card of the call just
// placed and this session's calls. A send happens only after the confirmation, once: a second
// click (or Enter) while one is in flight does nothing, and main refuses an identical send in flight.
import { lazy, Suspense, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Alert, Button, Form } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { IpcError } from '../../../../common/contract';
import type { MessageRecord } from '../../../../common/records';
import { describeError } from '../../app/api';
import { navigate } from '../../app/navigation';
import { BalanceCard } from './BalanceCard';
import { afterSettling } from '../../app/idle';
import { CallCard, preloadCallProgress } from './CallCard';
import { RecentCalls } from './RecentCalls';
import { SendForm } from './SendForm';
import { phaseOf } from './send-model';
import type { SendFormValues, SendRequest } from './send-request';
import type { TestCallResult } from './ConfirmSendModal';
import { sessionCalls, useSessionCalls } from './session-calls';
import { useSend, useSendAgain, useSendData } from './use-send-data';
import { useFeedback } from '../../app/feedback';
import { Panel } from '../../app/Panel';
import { Title, Paragraph } from '../../app/Text';
import { Skeleton } from '../../app/Skeleton';
import './send.css';

// The confirmation and the call's progress are needed only once a person sends: their own chunks,
// fetched when the screen is up (so they are there by the first click) but not before it shows.
const loadConfirm = () => import('./ConfirmSendModal');
const ConfirmSendModal = lazy(() => loadConfirm().then((m) => ({ default: m.ConfirmSendModal })));

export function SendScreen() {
  const { t } = useTranslation();
  const { modal, message } = useFeedback();
  const { data, loading, error, reload } = useSendData();
  const [form] = Form.useForm<SendFormValues>();
  const profileId = Form.useWatch('profileId', form) as string | undefined;
  const profile = data?.profiles.find((p) => p.id === profileId) ?? null;
  const session = useSessionCalls();

  const [confirming, setConfirming] = useState<SendRequest | null>(null);
  // Mounted from the first confirmation on (so that it can animate closed), not before.
  const confirmMounted = useRef(false);
  if (confirming) confirmMounted.current = true;
  const loaded = data !== undefined && data !== null;
  useEffect(() => {
    if (!loaded) return;
    return afterSettling(() => {
      preloadCallProgress();
      void loadConfirm().catch(() => undefined);
    });
  }, [loaded]);
  const [problem, setProblem] = useState<IpcError | null>(null);
  const send = useSend();
  const again = useSendAgain();
  // Set synchronously on the first confirming click: later clicks, Enter presses or a second
  // "send again" find it set and do nothing until the send has returned.
  const inFlight = useRef(false);

  const initialProfileId = useMemo(() => {
    if (!data) return undefined;
    return data.lastProfileId ?? data.profiles.find((p) => p.builtin)?.id ?? data.profiles[0]?.id;
  }, [data]);

  const afterSend = (m: MessageRecord) => {
    sessionCalls.add(m);
    setReveal((n) => n + 1);
    // A call may have been placed: empty the number, so that Enter cannot call the same person again by accident.
    if (m.outcome !== 'rejected') form.setFieldValue('mobile', '');
  };

  const sendFailed = (error: IpcError) => {
    // A bad number is said on its field; anything else next to the button.
    if (error.code === 'invalid-mobile') form.setFields([{ name: 'mobile', errors: [describeError(t, error)] }]);
    else setProblem(error);
  };

  const confirmSend = async (request: SendRequest) => {
    if (inFlight.current) return;
    inFlight.current = true;
    setConfirming(null);
    setProblem(null);
    setReveal((n) => n + 1);
    try {
      afterSend((await send.mutateAsync(request)).message);
    } catch (error) {
      sendFailed(error as IpcError);
    } finally {
      inFlight.current = false;
    }
  };

  // "Call me first": the same text to the person's own number, through the same send (a real call,
  // charged if answered, in History). The confirmation stays open, and the form keeps its number.
  const callMeFirst = async (request: SendRequest, ownMobile: string): Promise<TestCallResult> => {
    if (inFlight.current) return { ok: false, reason: t('send.action.sending') };
    inFlight.current = true;
    setReveal((n) => n + 1);
    let sent: MessageRecord;
    try {
      sent = (await send.mutateAsync({ ...request, mobile: ownMobile })).message;
    } catch (error) {
      return { ok: false, reason: describeError(t, error as IpcError) };
    } finally {
      inFlight.current = false;
    }
    sessionCalls.add(sent);
    // A rejected send placed no call: the call card says why.
    return sent.outcome === 'rejected' ? { ok: false, reason: t('send.phase.rejected') } : { ok: true };
  };

  const sendAgain = (id: number) => {
    const original = session.calls.find((c) => c.message.id === id)?.message;
    if (!original || inFlight.current) return;
    const unknown = phaseOf(original) === 'unknown';
    modal.confirm({
      title: unknown ? t('send.again.title', { mobile: original.mobile }) : t('send.again.callAgainTitle', { mobile: original.mobile }),
      content: (
        <div data-testid="send-again-confirm">
          <Paragraph>{unknown ? t('send.again.body') : t('send.again.callAgainBody')}</Paragraph>
          <Paragraph type="secondary" style={{ marginBottom: 0 }}>
            {t('send.again.cost', { units: t('send.units', { count: original.units }) })}
          </Paragraph>
        </div>
      ),
      okText: unknown ? t('send.again.ok') : t('send.again.callAgainOk'),
      okButtonProps: { danger: true, 'data-testid': 'send-again-ok' },
      cancelText: t('send.again.cancel'),
      width: 520,
      onOk: async () => {
        if (inFlight.current) return;
        inFlight.current = true;
        try {
          afterSend((await again.mutateAsync(id)).message);
        } catch (error) {
          void message.error(describeError(t, error as IpcError));
        } finally {
          inFlight.current = false;
        }
      },
    });
  };

  const selected = session.calls.find((c) => c.message.id === session.selectedId) ?? null;

  // The call just placed is shown where the person is looking: its card scrolled into view (the
  // form may be scrolled down to its button, or stacked above the card on a narrow window).
  const callCard = useRef<HTMLDivElement>(null);
  const [reveal, setReveal] = useState(0);
  useEffect(() => {
    if (reveal) callCard.current?.scrollIntoView({ block: 'nearest' });
  }, [reveal, selected?.message.id, send.isPending]);

  let notice: ReactNode = null;
  if (data && data.templates.length === 0) {
    notice = (
      <Alert
        type="info"
        showIcon
        data-testid="no-templates"
        title={t('send.notice.noTemplatesTitle')}
        description={t('send.notice.noTemplatesBody')}
        action={<Button onClick={() => navigate('templates')}>{t('send.notice.openTemplates')}</Button>}
        className="send-notice"
      />
    );
  } else if (data && !data.templates.some((tpl) => tpl.approved)) {
    notice = (
      <Alert
        type="warning"
        showIcon
        data-testid="no-approved-templates"
        title={t('send.notice.noApprovedTitle')}
        description={t('send.notice.noApprovedBody')}
        action={<Button onClick={() => navigate('templates')}>{t('send.notice.openTemplates')}</Button>}
        className="send-notice"
      />
    );
  }

  return (
    <section aria-labelledby="send-title" className="send-screen">
      <div className="send-header">
        <Title id="send-title" style={{ marginTop: 0, marginBottom: 4 }}>
          {t('send.title')}
        </Title>
        <Paragraph type="secondary" style={{ marginBottom: 0 }}>
          {t('send.intro')}
        </Paragraph>
      </div>

      {error ? (
        <Alert
          type="error"
          showIcon
          title={t('send.loadFailed')}
          description={describeError(t, error)}
          action={
            <Button icon={<ReloadOutlined />} onClick={reload}>
              {t('send.retry')}
            </Button>
          }
          className="send-notice"
        />
      ) : null}

      {!data ? (
        loading ? (
          <Panel aria-busy="true" data-testid="send-loading">
            <Skeleton rows={6} />
          </Panel>
        ) : null
      ) : (
        <div className="send-layout">
          <div className="send-main">
            {notice}
            <SendForm
              form={form}
              data={data}
              initialProfileId={initialProfileId}
              sending={send.isPending}
              onReview={(request) => {
                if (inFlight.current) return;
                setProblem(null);
                setConfirming(request);
              }}
              problem={
                problem ? (
                  <Alert
                    type="error"
                    showIcon
                    role="alert"
                    data-testid="send-problem"
                    data-code={problem.code}
                    title={t('send.problem.title')}
                    description={describeError(t, problem)}
                    action={
                      problem.code === 'no-key' ? (
                        <Button size="small" onClick={() => navigate('profiles')}>
                          {t('send.call.openProfiles')}
                        </Button>
                      ) : undefined
                    }
                    className="send-note"
                  />
                ) : null
              }
            />
          </div>
          <aside className="send-side" aria-label={t('send.sideLabel')}>
            <BalanceCard profile={profile} />
            <div ref={callCard} className="send-call-slot">
              <CallCard
                call={send.isPending ? null : selected}
                sendingTo={send.isPending ? send.variables.mobile : null}
                onSendAgain={sendAgain}
                sendAgainBusy={again.isPending}
                onOpenProfiles={() => navigate('profiles')}
              />
            </div>
            <RecentCalls calls={session.calls} selectedId={session.selectedId} onSelect={(id) => sessionCalls.select(id)} />
          </aside>
        </div>
      )}

      {confirmMounted.current ? (
        <Suspense fallback={null}>
          <ConfirmSendModal request={confirming} onConfirm={(r) => void confirmSend(r)} onCancel={() => setConfirming(null)} onCallMeFirst={callMeFirst} />
        </Suspense>
      ) : null}
    </section>
  );
}
