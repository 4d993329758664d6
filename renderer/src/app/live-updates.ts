// Main's push events, followed once for the whole window: each updates the cached data it concerns
// (and has what depends on it loaded again), so that every screen shows what main says without
// listening itself. The data every screen shares is followed here; each feature follows its own
// (its LiveUpdates, from its data module), handed in by the composition root.
import type { QueryClient } from '@tanstack/react-query';
import type { MessageRecord } from '../../../common/records';
import i18next from 'i18next';
import type { CalloutApi } from './api';
import { notifyCallEnded } from './browser-notifications';
import { consoleShell } from './browser-transport';
import { appInfoQuery, balanceKeys, messageKeys, messageQuery, profilesQuery, upsertById, type LiveUpdates } from './query';

/** The newer of two versions of a message (a push and an answer may cross). */
const newer = (current: MessageRecord, incoming: MessageRecord) => (incoming.updatedAt >= current.updatedAt ? incoming : current);

export function followMain(api: CalloutApi, client: QueryClient, features: readonly LiveUpdates[]): void {
  api.on.messageUpdated((m) => {
    const key = messageQuery(m.id).queryKey;
    const cached = client.getQueryData(key);
    if (cached) {
      client.setQueryData(key, { ...cached, message: newer(cached.message, m) });
      // A call that ended may have been billed: its profile's balance is asked again where it is shown.
      if (cached.message.endedAt === null && m.endedAt !== null) void client.invalidateQueries({ queryKey: balanceKeys.of(m.profile) });
    }
    // Its timeline, and the numbers called last.
    void client.invalidateQueries({ queryKey: key });
    void client.invalidateQueries({ queryKey: messageKeys.recents() });
  });

  // The desktop app notifies from main; in a browser the page does, with the person's permission.
  if (consoleShell().kind === 'browser') api.on.callEnded((m) => notifyCallEnded(i18next.t, m));

  // A full disk (or writing working again): the banner on every screen follows it.
  api.on.storageProblem((problem) => {
    client.setQueryData(appInfoQuery.queryKey, (info) => (info ? { ...info, storageProblem: problem } : info));
  });
  // The provider accepted or rejected a profile's key (a check, a send, a status query): every screen shows it.
  api.on.profileUpdated((p) => client.setQueryData(profilesQuery.queryKey, (list) => upsertById(list, p)));

  for (const follow of features) follow(api.on, client);
}
