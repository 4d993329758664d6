// Main's push events, followed once for the whole window: each updates the cached data it concerns
// (and has what depends on it loaded again), so that every screen shows what main says without
// listening itself.
import type { QueryClient } from '@tanstack/react-query';
import type { MessageRecord } from '../../../common/records';
import { applyBulkProgress } from '../features/bulk/use-bulk-data';
import { dialRuns } from '../features/dial/dial-store';
import { contactsChanged } from '../features/dial/use-dial-data';
import { historyPatcher } from '../features/history/history-push';
import { incidentUpdated } from '../features/oncall/data';
import i18next from 'i18next';
import type { CalloutApi } from './api';
import { notifyCallEnded } from './browser-notifications';
import { consoleShell } from './browser-transport';
import { appInfoQuery, balanceQuery, messageQuery, profilesQuery, recentsQuery, upsertById } from './query';

/** The newer of two versions of a message (a push and an answer may cross). */
const newer = (current: MessageRecord, incoming: MessageRecord) => (incoming.updatedAt >= current.updatedAt ? incoming : current);

export function followMain(api: CalloutApi, client: QueryClient): void {
  const patchHistory = historyPatcher(client);

  api.on.messageUpdated((m) => {
    const key = messageQuery(m.id).queryKey;
    const cached = client.getQueryData(key);
    if (cached) {
      client.setQueryData(key, { ...cached, message: newer(cached.message, m) });
      // A call that ended may have been billed: its profile's balance is asked again where it is shown.
      if (cached.message.endedAt === null && m.endedAt !== null) void client.invalidateQueries({ queryKey: balanceQuery(m.profile).queryKey });
    }
    // Its timeline, and the numbers called last.
    void client.invalidateQueries({ queryKey: key });
    void client.invalidateQueries({ queryKey: recentsQuery.queryKey });
    patchHistory(m);
    dialRuns.messageUpdated(m);
  });

  // The desktop app notifies from main; in a browser the page does, with the person's permission.
  if (consoleShell().kind === 'browser') api.on.callEnded((m) => notifyCallEnded(i18next.t, m));

  api.on.bulkProgress((p) => applyBulkProgress(client, p));

  // A full disk (or writing working again): the banner on every screen follows it.
  api.on.storageProblem((problem) => {
    client.setQueryData(appInfoQuery.queryKey, (info) => (info ? { ...info, storageProblem: problem } : info));
  });
  // The provider accepted or rejected a profile's key (a check, a send, a status query): every screen shows it.
  api.on.profileUpdated((p) => client.setQueryData(profilesQuery.queryKey, (list) => upsertById(list, p)));

  // The capture proxy: its switch shows its state, and a list of captured exchanges shows each as it lands.
  let pending: ReturnType<typeof setTimeout> | null = null;
  api.on.captureUpdated(({ status, exchangeId }) => {
    client.setQueryData(['capture.status'], status);
    if (exchangeId === null || pending) return;
    pending = setTimeout(() => {
      pending = null;
      void client.invalidateQueries({ queryKey: ['exchanges.list'], predicate: (q) => (q.queryKey[1] as { captured?: boolean } | undefined)?.captured === true });
    }, 300);
  });

  // An incident opened or changed: its list and detail on the On call screen follow.
  api.on.incidentUpdated((incident) => incidentUpdated(client, incident));

  api.on.dialProgress((p) => {
    dialRuns.progress(p);
    // Contacts remember when they were called, and with which template.
    if (p.phase === 'done') contactsChanged(client);
  });
}
