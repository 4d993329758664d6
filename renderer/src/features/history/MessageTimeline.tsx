// A message's state timeline, in words: created, submitted, calling, each redial, answered with its
// duration or how the call failed; an unknown outcome says why it is unknown and offers a
// deliberate "Send again" (the caller asks for a confirmation first).
import { Alert, Button, Timeline, Typography } from 'antd';
import { RedoOutlined } from '@ant-design/icons';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { MessageEventRecord, MessageRecord } from '../../../../common/records';
import type { Reason } from '../../../../common/reasons';
import { FINAL_STATES } from '../../../../common/domain/status';
import { describeProviderCode, describeReason } from '../../app/api';
import { currentLanguage, type Language } from '../../i18n';
import { formatDuration, formatTime, stateLabel } from './history-model';

/** What a rejection means: the gateway's signature check, the provider's code, or why the request never left. */
function rejectionText(t: TFunction, m: MessageRecord, reason: Reason | null): string | undefined {
  if (m.errorKind === 'signature-rejected') return t('provider.signature.meaning', { ns: 'msg' });
  if (m.code !== null) return `${t('history.detail.codeN', { code: m.code })} · ${describeProviderCode(t, m.code).meaning}`;
  return reason ? describeReason(t, reason) : undefined;
}

interface Entry {
  key: string;
  color: string;
  title: string;
  content?: React.ReactNode;
}

function entriesOf(t: TFunction, lang: Language, m: MessageRecord, events: MessageEventRecord[], sendAgain: React.ReactNode): Entry[] {
  return events.map((e) => {
    const time = formatTime(lang, e.at, true);
    switch (e.kind) {
      case 'created':
        return { key: String(e.id), color: 'gray', title: t('history.timeline.created', { time }), content: t('history.timeline.createdBody') };
      case 'submitted':
        return {
          key: String(e.id),
          color: 'blue',
          title: t('history.timeline.submitted', { time }),
          content: [e.detail, m.smsid ? `smsid ${m.smsid}` : null].filter(Boolean).join(' · ') || undefined,
        };
      case 'rejected':
        return { key: String(e.id), color: 'red', title: t('history.timeline.rejected', { time }), content: rejectionText(t, m, e.reason ?? m.reason) };
      case 'unknown':
        return {
          key: String(e.id),
          color: 'orange',
          title: t('history.timeline.unknown', { time }),
          content: (
            <div data-testid="timeline-unknown">
              {e.reason ? <div>{describeReason(t, e.reason)}</div> : null}
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t('history.timeline.unknownCheck')}
              </Typography.Text>
              {sendAgain}
            </div>
          ),
        };
      case 'redial':
        return { key: String(e.id), color: 'orange', title: t('history.timeline.redial', { time, n: e.detail ?? '?' }) };
      case 'error':
        return {
          key: String(e.id),
          color: 'gray',
          title: t('history.timeline.stopped', { time }),
          content: e.reason ? describeReason(t, e.reason) : undefined,
        };
      case 'state':
      default: {
        const state = e.state ?? 'unknown';
        if (state === 'answered') {
          return {
            key: String(e.id),
            color: 'green',
            title: t('history.timeline.answered', { time }),
            content: m.duration !== null ? t('history.timeline.talked', { duration: formatDuration(t, m.duration) }) : undefined,
          };
        }
        const failed = FINAL_STATES.has(state);
        // The provider's own word, when it says more than the state's name; why, when Callout says something about it (a value not recognised).
        const said = e.reason
          ? describeReason(t, e.reason)
          : e.detail && e.detail.toLowerCase().replace(/[\s_-]+/g, '') !== state.replace(/_/g, '')
            ? t('history.timeline.providerSaid', { word: e.detail })
            : undefined;
        return {
          key: String(e.id),
          color: failed ? 'red' : state === 'unknown' ? 'gray' : 'blue',
          title: t('history.timeline.state', { time, state: stateLabel(t, state) }),
          content: said,
        };
      }
    }
  });
}

export interface MessageTimelineProps {
  message: MessageRecord;
  events: MessageEventRecord[];
  /** Null when a later send of the same text is the way forward (nothing is offered here then). */
  onSendAgain: (() => void) | null;
  sendingAgain: boolean;
}

export function MessageTimeline({ message, events, onSendAgain, sendingAgain }: MessageTimelineProps) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  const again =
    message.outcome === 'unknown' && onSendAgain ? (
      <Button size="small" icon={<RedoOutlined />} onClick={onSendAgain} loading={sendingAgain} style={{ marginTop: 8 }} data-testid="send-again">
        {t('history.again.button')}
      </Button>
    ) : null;
  const entries = entriesOf(t, lang, message, events, again);
  if (!entries.length) return <Alert type="info" title={t('history.timeline.none')} />;
  const open = message.outcome === 'accepted' && message.endedAt === null && !FINAL_STATES.has(message.state);
  return (
    <Timeline
      data-testid="message-timeline"
      items={[
        ...entries.map((e) => ({
          key: e.key,
          color: e.color,
          content: (
            <div data-testid="timeline-entry">
              <div className="history-tl-title">{e.title}</div>
              {e.content ? <div className="history-tl-body">{e.content}</div> : null}
            </div>
          ),
        })),
        ...(open ? [{ key: 'open', loading: true, content: <span className="history-tl-title">{t('history.timeline.following')}</span> }] : []),
      ]}
    />
  );
}
