// The Send screen: the form on the left; on the right the balance, the live card of the call just
// placed and this session's calls. A send happens only after the confirmation, once: a second
// click (or Enter) while one is in flight does nothing, and main refuses an identical send in flight.
import { useCallback, useMemo, useRef, useState, type ReactNode } from 'react';
import { Alert, App, Button, Card, Form, Skeleton, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { IpcError } from '../../../../common/contract';
import type { MessageRecord } from '../../../../common/records';
import { MOBILE_ERRORS, type MobileError } from '../../../../common/domain/mobile';
import { CONTENT_ERRORS, type ContentError } from '../../../../common/domain/units';
import { call, describeError } from '../../app/api';
import { currentLanguage } from '../../i18n';
import { BalanceCard } from './BalanceCard';
import { CallCard } from './CallCard';
import { ConfirmSendModal } from './ConfirmSendModal';
import { RecentCalls } from './RecentCalls';
import { SendForm } from './SendForm';
import { phaseOf } from './send-model';
import type { SendFormValues, SendRequest } from './send-request';
import { sessionCalls, useLiveCalls, useSessionCalls } from './session-calls';
import { useBalance } from './use-balance';
import { useSendData } from './use-send-data';
import './send.css';

const go = (screen: string) => {
  window.location.hash = `/${screen}`;
};

export function SendScreen() {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  const { modal, message } = App.useApp();
  const { data, loading, error, reload, reloadRecents } = useSendData();
  const [form] = Form.useForm<SendFormValues>();
  const profileId = Form.useWatch('profileId', form) as string | undefined;
  const profile = data?.profiles.find((p) => p.id === profileId) ?? null;
  const balance = useBalance(profile?.id ?? null, profile?.hasKey ?? false);
  const session = useSessionCalls();

  const [confirming, setConfirming] = useState<SendRequest | null>(null);
  const [sending, setSending] = useState<SendRequest | null>(null);
  const [againBusy, setAgainBusy] = useState(false);
  const [problem, setProblem] = useState<{ error: IpcError; text: string } | null>(null);
  // Set synchronously on the first confirming click: later clicks, Enter presses or a second
  // "send again" find it set and do nothing until the send has returned.
  const inFlight = useRef(false);

  const refreshBalance = balance.refresh;
  const onEnded = useCallback(() => refreshBalance(), [refreshBalance]);
  useLiveCalls(onEnded);

  const initialProfileId = useMemo(() => {
    if (!data) return undefined;
    return data.lastProfileId ?? data.profiles.find((p) => p.builtin)?.id ?? data.profiles[0]?.id;
  }, [data]);

  const afterSend = (m: MessageRecord) => {
    sessionCalls.add(m);
    // A call may have been placed: empty the number, so that Enter cannot call the same person again by accident.
    if (m.outcome !== 'rejected') form.setFieldValue('mobile', '');
    reloadRecents();
    refreshBalance();
  };

  const sendFailed = (error: IpcError) => {
    const issue = error.issues?.[0];
    if (error.code === 'invalid-mobile' && issue && issue.message in MOBILE_ERRORS) {
      form.setFields([{ name: 'mobile', errors: [MOBILE_ERRORS[issue.message as MobileError][lang]] }]);
      return;
    }
    const text = error.code === 'invalid-content' && issue && issue.message in CONTENT_ERRORS ? CONTENT_ERRORS[issue.message as ContentError][lang] : describeError(t, error);
    setProblem({ error, text });
  };

  const confirmSend = async (request: SendRequest) => {
    if (inFlight.current) return;
    inFlight.current = true;
    setConfirming(null);
    setProblem(null);
    setSending(request);
    const r = await call((api) =>
      api.messages.send({ profileId: request.profile.id, mobile: request.mobile, content: request.content, templateId: request.template?.id ?? null }),
    );
    inFlight.current = false;
    setSending(null);
    if (r.ok) afterSend(r.value.message);
    else sendFailed(r.error);
  };

  const sendAgain = (id: number) => {
    const original = session.calls.find((c) => c.message.id === id)?.message;
    if (!original || inFlight.current) return;
    const unknown = phaseOf(original) === 'unknown';
    modal.confirm({
      title: unknown ? t('send.again.title', { mobile: original.mobile }) : t('send.again.callAgainTitle', { mobile: original.mobile }),
      content: (
        <div data-testid="send-again-confirm">
          <Typography.Paragraph>{unknown ? t('send.again.body') : t('send.again.callAgainBody')}</Typography.Paragraph>
          <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
            {t('send.again.cost', { units: t('send.units', { count: original.units }) })}
          </Typography.Paragraph>
        </div>
      ),
      okText: unknown ? t('send.again.ok') : t('send.again.callAgainOk'),
      okButtonProps: { danger: true, 'data-testid': 'send-again-ok' },
      cancelText: t('send.again.cancel'),
      width: 520,
      onOk: async () => {
        if (inFlight.current) return;
        inFlight.current = true;
        setAgainBusy(true);
        const r = await call((api) => api.messages.sendAgain({ id, confirm: true }));
        inFlight.current = false;
        setAgainBusy(false);
        if (r.ok) afterSend(r.value.message);
        else void message.error(describeError(t, r.error));
      },
    });
  };

  const selected = session.calls.find((c) => c.message.id === session.selectedId) ?? null;

  let notice: ReactNode = null;
  if (data && data.templates.length === 0) {
    notice = (
      <Alert
        type="info"
        showIcon
        data-testid="no-templates"
        title={t('send.notice.noTemplatesTitle')}
        description={t('send.notice.noTemplatesBody')}
        action={<Button onClick={() => go('templates')}>{t('send.notice.openTemplates')}</Button>}
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
        action={<Button onClick={() => go('templates')}>{t('send.notice.openTemplates')}</Button>}
        className="send-notice"
      />
    );
  }

  return (
    <section aria-labelledby="send-title" className="send-screen">
      <div className="send-header">
        <Typography.Title level={3} id="send-title" style={{ marginTop: 0, marginBottom: 4 }}>
          {t('send.title')}
        </Typography.Title>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
          {t('send.intro')}
        </Typography.Paragraph>
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
          <Card aria-busy="true" data-testid="send-loading">
            <Skeleton active paragraph={{ rows: 6 }} />
          </Card>
        ) : null
      ) : (
        <div className="send-layout">
          <div className="send-main">
            {notice}
            <SendForm
              form={form}
              data={data}
              initialProfileId={initialProfileId}
              sending={sending !== null}
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
                    data-code={problem.error.code}
                    title={t('send.problem.title')}
                    description={problem.text}
                    action={
                      problem.error.code === 'no-key' ? (
                        <Button size="small" onClick={() => go('profiles')}>
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
            <BalanceCard profile={profile} balance={balance} onRefresh={refreshBalance} />
            <CallCard
              call={sending ? null : selected}
              sendingTo={sending?.mobile ?? null}
              onSendAgain={sendAgain}
              sendAgainBusy={againBusy}
              onOpenProfiles={() => go('profiles')}
            />
            <RecentCalls calls={session.calls} selectedId={session.selectedId} onSelect={(id) => sessionCalls.select(id)} />
          </aside>
        </div>
      )}

      <ConfirmSendModal request={confirming} onConfirm={(r) => void confirmSend(r)} onCancel={() => setConfirming(null)} />
    </section>
  );
}
