// The dial slice of the handler table: contacts and groups, quick dial and its settings.
import type { dialOps } from '../../common/contract/dial';
import type { Ops } from '../ops';
import type { DialSettingsRepository } from '../store';
import type { ContactService } from './contacts';
import type { Dialer } from './dialer';

export function dialOpsOf(d: { contacts: ContactService; dialer: Dialer; settings: Pick<DialSettingsRepository, 'effective' | 'save'> }): Ops<typeof dialOps> {
  const { contacts, dialer, settings } = d;
  return {
    'contacts.list': async () => contacts.list(),
    'contacts.resolve': async ({ query }) => contacts.resolve(query),
    'contacts.search': async ({ query, limit }) => contacts.search(query, limit),
    'contacts.save': async (input) => contacts.save(input),
    'contacts.remove': async ({ id }) => ({ removed: contacts.remove(id) }),
    'contacts.setFavourite': async ({ id, favourite }) => contacts.setFavourite(id, favourite),
    'contacts.groups': async () => contacts.listGroups(),
    'contacts.saveGroup': async (input) => contacts.saveGroup(input),
    'contacts.removeGroup': async ({ id }) => ({ removed: contacts.removeGroup(id) }),

    'dial.plan': async (req) => dialer.plan(req),
    'dial.start': async (req) => dialer.start(req),
    'dial.cancel': async ({ runId }) => ({ cancelled: dialer.cancel(runId) }),
    'dial.active': async () => dialer.active(),
    'dial.settings': async (input) => settings.effective(input?.profileId ?? null),
    'dial.saveSettings': async (s) => settings.save(s),
  };
}
