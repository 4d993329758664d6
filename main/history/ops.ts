// The history slice of the handler table: messages and exchanges as they were, their exports, and
// how long the store keeps them.
import type { historyOps } from '../../common/contract/history';
import type { Clock } from '../clock';
import { fail } from '../errors';
import { toCurl, toHar } from '../export';
import type { Ops } from '../ops';
import type { ProfileService } from '../profiles/profile-service';
import type { HistoryRepository, RecoveredDatabase, StoreRetention } from '../store';
import type { ExchangeLookup } from './exchanges';
import { historyCsv, type HistoryCsvDeps } from './history-csv';

export interface HistoryOpsDeps extends HistoryCsvDeps {
  history: Pick<HistoryRepository, 'page' | 'overview' | 'upTo' | 'listExchanges'>;
  exchange: ExchangeLookup;
  retention: StoreRetention;
  recovered(): RecoveredDatabase | null;
  profiles: Pick<ProfileService, 'endpoint'>;
  clipboard: { writeText(text: string): void } | null;
  clock: Clock;
  version: string;
}

export function historyOpsOf(d: HistoryOpsDeps): Ops<typeof historyOps> {
  const { history, exchange, retention } = d;
  return {
    'history.page': async ({ filter, ...page }) => history.page(filter, page),
    'history.overview': async (input) => history.overview(input),
    'history.exportCsv': async ({ filter, lang, utcOffsetMinutes, limit = 100_000 }) => historyCsv(d, { filter, lang, utcOffsetMinutes, limit }),

    'exchanges.list': async (query) => history.listExchanges(query),
    'exchanges.get': async ({ id }) => exchange(id),
    'exchanges.curl': async ({ id, target }) => ({ command: await toCurl(exchange(id), { target }) }),
    'exchanges.copyCurlWithKey': async ({ id, target }) => {
      const e = exchange(id);
      if (!d.clipboard) throw fail('unavailable', { kind: 'clipboard' });
      if (!e.profile) throw fail('exchange-without-profile');
      const endpoint = await d.profiles.endpoint(e.profile);
      // The key goes from main straight to the clipboard; only "copied" goes back.
      d.clipboard.writeText(await toCurl(e, { apiKey: endpoint.apiKey, signing: endpoint.signing ?? undefined, target, now: () => d.clock.date() }));
      return { copied: true as const };
    },
    'exchanges.exportHar': async ({ ids }) => {
      const list = ids.map(exchange);
      return { json: JSON.stringify(toHar(list, { name: 'Callout', version: d.version }), null, 2), entries: list.length };
    },

    'store.status': async () => ({
      retention: retention.settings(),
      usage: retention.usage(),
      fileBytes: retention.fileBytes(),
      packing: retention.packing(),
      compactAdvised: retention.compactAdvised(),
      recovered: d.recovered(),
    }),
    'store.setRetention': async (settings) => retention.setSettings(settings),
    'store.previewRetention': async (settings) => retention.preview(settings),
    'store.applyRetention': async () => retention.apply(),
    'store.vacuum': async () => retention.vacuum(),
  };
}
