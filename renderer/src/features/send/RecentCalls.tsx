// This session's sends, newest first; choosing one shows its card.
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../i18n';
import { formatTime, PHASE_COLORS, phaseLabel, phaseOf } from './send-model';
import type { SessionCall } from './session-calls';
import { Panel } from '../../app/Panel';
import { Text } from '../../app/Text';

export interface RecentCallsProps {
  calls: SessionCall[];
  selectedId: number | null;
  onSelect: (id: number) => void;
}

export function RecentCalls({ calls, selectedId, onSelect }: RecentCallsProps) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  return (
    <Panel size="small" title={t('send.recent.title')} data-testid="recent-calls">
      {calls.length === 0 ? (
        <Text type="secondary">{t('send.recent.empty')}</Text>
      ) : (
        <ul className="send-recent" aria-label={t('send.recent.title')}>
          {calls.map(({ message: m }) => (
            <li key={m.id}>
              <button
                type="button"
                className={`send-recent-item${m.id === selectedId ? ' is-selected' : ''}`}
                aria-current={m.id === selectedId ? 'true' : undefined}
                onClick={() => onSelect(m.id)}
                data-testid="recent-call"
                data-message-id={m.id}
                data-phase={phaseOf(m)}
              >
                <span className="send-recent-main">
                  <Text strong>{m.mobile}</Text>
                  <Text type="secondary" ellipsis className="send-recent-text" lang="zh-CN">
                    {m.content}
                  </Text>
                </span>
                <span className="send-recent-side">
                  <Tag color={PHASE_COLORS[phaseOf(m)]} style={{ marginInlineEnd: 0 }}>
                    {phaseLabel(t, m)}
                  </Tag>
                  <Text type="secondary" className="send-time">
                    {formatTime(lang, m.createdAt)}
                  </Text>
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
