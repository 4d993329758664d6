// The call card while there is a call to show: what became of the send (accepted, rejected with the
// code's meaning and next step, or unknown), the call's progress (submitted → calling → how it
// ended) and its timestamped timeline. An unknown outcome offers a deliberate "Send again", after
// confirmation. Its own chunk (steps, timeline): loaded once the Send screen is up (CallCard.tsx).
import { Alert, Button, Steps, Tag, Timeline, Typography } from 'antd';
import { PhoneOutlined, RedoOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { navigate } from '../../app/navigation';
import { profilesQuery } from '../../app/query';
import { currentLanguage } from '../../i18n';
import { authFixPlace, authRefusal } from '../../../../common/domain/outcomes';
import { followsByReceiptsOnly } from '../../../../common/domain/status';
import { describeOutcome, formatTime, offersSendAgain, PHASE_COLORS, phaseLabel, phaseOf, stepsOf, timelineEntries } from './send-model';
import { sendAgainIsMain, waitingNextText } from './call-notes';
import type { SessionCall } from './session-calls';
import { Panel } from '../../app/Panel';

/** What a person can do from the call card. */
export interface CallActions {
  onSendAgain: (id: number) => void;
  sendAgainBusy: boolean;
  onOpenProfiles: () => void;
}

export function CallProgress({ call, onSendAgain, sendAgainBusy, onOpenProfiles }: CallActions & { call: SessionCall }) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  const profiles = useQuery(profilesQuery).data;

  const m = call.message;
  const phase = phaseOf(m);
  // A reply of the built-in Sandbox: what to do is on the Sandbox screen, not in a provider's console.
  const profile = profiles?.find((p) => p.id === m.profile);
  const sandbox = profile?.builtin === true;
  const follow = { receiptsOnly: profile ? followsByReceiptsOnly(profile) : false };
  const outcome = describeOutcome(t, m, sandbox ? 'sandbox' : undefined, profile?.signing, follow);
  const sandboxFix = sandbox && m.outcome === 'rejected' && (m.code === 402 || m.code === 403) ? m.code : null;
  const steps = stepsOf(t, m);
  const entries = call.events ? timelineEntries(t, m, call.events) : [];
  const open = phase === 'sending' || phase === 'waiting' || phase === 'calling';
  const again = offersSendAgain(m);
  const authProblem = m.code === 401 || m.errorKind === 'signature-rejected';
  // The button names the place the advice names: the signature workbench for a refused signature, Profiles otherwise.
  const fixPlace = authFixPlace(authRefusal(m.errorKind === 'signature-rejected' ? 'signature' : 'credentials', profile?.signing));

  return (
    <Panel
      size="small"
      title={
        <span className="send-call-title">
          <PhoneOutlined aria-hidden className={phase === 'calling' ? 'send-ringing' : undefined} />
          {t('send.call.title', { mobile: m.mobile })}
        </span>
      }
      extra={
        <Tag color={PHASE_COLORS[phase]} data-testid="call-phase" style={{ marginInlineEnd: 0 }}>
          {phaseLabel(t, m)}
        </Tag>
      }
      data-testid="call-card"
      data-message-id={m.id}
      data-phase={phase}
      data-state={m.state}
      data-outcome={m.outcome}
    >
      <div role="status" aria-live="polite" data-testid="call-outcome" data-type={outcome.type}>
        <Alert
          type={outcome.type}
          showIcon
          title={outcome.title}
          description={
            outcome.body.length ? (
              <>
                {outcome.body.map((line) => (
                  <div key={line}>{line}</div>
                ))}
              </>
            ) : undefined
          }
          action={
            authProblem ? (
              <Button
                size="small"
                onClick={fixPlace === 'signature' ? () => navigate('signature') : onOpenProfiles}
                data-testid="auth-fix"
                data-place={fixPlace}
              >
                {fixPlace === 'signature' ? t('send.call.openSignatures') : t('send.call.openProfiles')}
              </Button>
            ) : sandboxFix !== null ? (
              <Button size="small" type="primary" onClick={() => navigate('sandbox')} data-testid="open-sandbox">
                {sandboxFix === 402 ? t('sandbox.links.topUp') : t('sandbox.links.register')}
              </Button>
            ) : undefined
          }
        />
      </div>

      {again ? (
        <Button
          danger={sendAgainIsMain(m)}
          icon={<RedoOutlined />}
          onClick={() => onSendAgain(m.id)}
          loading={sendAgainBusy}
          disabled={sendAgainBusy}
          className="send-again"
          data-testid="send-again"
          data-emphasis={sendAgainIsMain(m) ? 'main' : 'secondary'}
        >
          {phase === 'unknown' ? t('send.again.button') : t('send.again.callAgain')}
        </Button>
      ) : null}

      {steps ? (
        <Steps
          size="small"
          titlePlacement="vertical"
          className="send-steps"
          current={steps.current}
          status={steps.status}
          items={steps.items}
          data-testid="call-steps"
        />
      ) : null}

      <Typography.Text strong className="send-section-title">
        {t('send.call.timeline')}
      </Typography.Text>
      <Timeline
        className="send-timeline"
        data-testid="call-timeline"
        items={[
          ...entries.map((e) => ({
            key: e.key,
            color: e.color,
            content: (
              <div data-testid="timeline-entry">
                <Typography.Text>{e.title}</Typography.Text>{' '}
                <Typography.Text type="secondary" className="send-time">
                  {formatTime(lang, e.at)}
                </Typography.Text>
                {e.detail ? (
                  <div>
                    <Typography.Text type="secondary">{e.detail}</Typography.Text>
                  </div>
                ) : null}
              </div>
            ),
          })),
          ...(open ? [{ key: 'next', loading: true, content: <Typography.Text type="secondary">{waitingNextText(t, follow)}</Typography.Text> }] : []),
        ]}
      />

      <Typography.Text type="secondary" className="send-section-title">
        {t('send.call.text')}
      </Typography.Text>
      <Typography.Paragraph className="send-call-text" ellipsis={{ rows: 2, expandable: true, symbol: t('send.call.more') }} lang="zh-CN">
        {m.content}
      </Typography.Paragraph>
    </Panel>
  );
}
