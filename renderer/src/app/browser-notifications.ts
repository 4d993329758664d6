// Notifications when a call ends, in the browser console (`callout ui`): the desktop app's come from
// main; here the page shows them itself, with the Notification API, once the person has allowed it.
// Both say the same words (common/messages callEndedNotice).
import { useCallback, useSyncExternalStore } from 'react';
import type { TFunction } from 'i18next';
import { callEndedNotice, MESSAGES_NS } from '../../../common/messages';
import type { MessageRecord } from '../../../common/records';

export type NoticePermission = 'default' | 'granted' | 'denied' | 'unsupported';

function supported(): boolean {
  // Notifications need a secure context: http://127.0.0.1 is one, a LAN address over http is not.
  return typeof window !== 'undefined' && 'Notification' in window && window.isSecureContext;
}

export function noticePermission(): NoticePermission {
  return supported() ? (Notification.permission as NoticePermission) : 'unsupported';
}

const listeners = new Set<() => void>();
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** The permission, and the function that asks for it (call it from a click). */
export function useNoticePermission(): [NoticePermission, () => Promise<void>] {
  const permission = useSyncExternalStore(subscribe, noticePermission);
  const ask = useCallback(async () => {
    if (!supported()) return;
    await Notification.requestPermission();
    for (const l of listeners) l();
  }, []);
  return [permission, ask];
}

/** Shows that a call ended, if allowed; a click brings the console's tab forward. */
export function notifyCallEnded(t: TFunction, m: MessageRecord): void {
  if (noticePermission() !== 'granted') return;
  const say = (key: string, params?: Record<string, unknown>) => (t as unknown as (k: string, o: object) => string)(key, { ...params, ns: MESSAGES_NS });
  const { title, body } = callEndedNotice(say, m);
  try {
    const notice = new Notification(title, { body, tag: `callout-call-${m.id}` });
    notice.onclick = () => {
      window.focus();
      notice.close();
    };
  } catch {
    // Some browsers allow notifications only from a service worker: then there is none.
  }
}
