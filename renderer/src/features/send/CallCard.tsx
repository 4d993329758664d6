// One message followed live (the Send screen's right column): nothing yet, a send on its way, or the
// call with its progress and timeline (CallProgress, its own chunk, with the Sandbox's texts it uses
// for the Sandbox's own advice: fetched as soon as the screen is up, so that it is there by the time
// a call is placed).
import { lazy, Suspense } from 'react';
import { Alert, Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import { Panel } from '../../app/Panel';
import { loadTexts } from '../../i18n';
import type { CallActions } from './CallProgress';
import type { SessionCall } from './session-calls';
import { Skeleton } from '../../app/Skeleton';

const loadProgress = () => Promise.all([import('./CallProgress'), loadTexts(['sandbox'])]).then(([m]) => m);
const CallProgress = lazy(() => loadProgress().then((m) => ({ default: m.CallProgress })));

/** Fetches the call card's progress view ahead of the first call. */
export function preloadCallProgress(): void {
  void loadProgress().catch(() => undefined);
}

export interface CallCardProps extends CallActions {
  call: SessionCall | null;
  /** A send in flight that has no message yet: shown as "sending" with its number. */
  sendingTo: string | null;
}

export function CallCard({ call, sendingTo, ...actions }: CallCardProps) {
  const { t } = useTranslation();

  if (!call && sendingTo) {
    return (
      <Panel title={t('send.call.title', { mobile: sendingTo })} data-testid="call-card" data-phase="sending" size="small">
        <Alert type="info" showIcon title={t('send.outcome.sendingTitle')} description={t('send.outcome.sendingBody')} role="status" />
      </Panel>
    );
  }
  if (!call) {
    return (
      <Panel title={t('send.call.emptyTitle')} size="small" data-testid="call-card-empty">
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('send.call.empty')} />
      </Panel>
    );
  }
  return (
    <Suspense
      fallback={
        <Panel title={t('send.call.title', { mobile: call.message.mobile })} size="small">
          <Skeleton />
        </Panel>
      }
    >
      <CallProgress call={call} {...actions} />
    </Suspense>
  );
}
