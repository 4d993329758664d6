// The history slice of the handler table: messages and exchanges as they were, their exports, and
// how long the store keeps them.
import type { historyOps } from '../../common/contract/history';
import type { Clock } from '../clock';
import { fail } from '../errors';
import { toCurl, toHar } from '../export';
import type { Ops } from '../ops';
import type { ProfileService } from '../profiles/profile-service';
import type { ArchiveShelf, Archiver, HistoryRepository, RecoveredDatabase, StoreRetention } from '../store';
import type { ExchangeLookup } from './exchanges';
import { historyCsv, type HistoryCsvDeps } from './history-csv';

export interface HistoryOpsDeps extends HistoryCsvDeps {
  history: Pick<HistoryRepository, 'page' | 'overview' | 'upTo' | 'listExchanges'>;
  exchange: ExchangeLookup;
  retention: StoreRetention;
  archives: { shelf: ArchiveShelf; archiver: Archiver };
  recovered(): RecoveredDatabase | null;
  profiles: Pick<ProfileService, 'endpoint'>;
  clipboard: { writeText(text: string): void } | null;
  clock: Clock;
  version: string;
}

export function historyOpsOf(d: HistoryOpsDeps): Ops<typeof historyOps> {
  const { history, exchange, retention, archives } = d;
  return {
    'history.page': async ({ filter, ...page }) => history.page(filter, page),
    'history.overview': async (input) => history.overview(input),
    'history.exportCsv': async ({ filter, lang, utcOffsetMinutes, limit = 100_000 }) => historyCsv(d, { filter, lang, utcOffsetMinutes, limit }),

    'exchanges.list': async ({ archive, ...query }) => {
      if (archive === undefined) return history.listExchanges(query);
      const page = archives.shelf.read(archive, (a) => a.history.listExchanges(query));
      return { ...page, rows: page.rows.map((e) => ({ ...e, archive })) };
    },
    'exchanges.get': async ({ id, archive }) => exchange(id, archive),
    'exchanges.curl': async ({ id, target, archive }) => ({ command: await toCurl(exchange(id, archive), { target }) }),
    'exchanges.copyCurlWithKey': async ({ id, target, archive }) => {
      const e = exchange(id, archive);
      if (!d.clipboard) throw fail('unavailable', { kind: 'clipboard' });
      if (!e.profile) throw fail('exchange-without-profile');
      const endpoint = await d.profiles.endpoint(e.profile);
      // The key goes from main straight to the clipboard; only "copied" goes back.
      d.clipboard.writeText(await toCurl(e, { apiKey: endpoint.apiKey, signing: endpoint.signing ?? undefined, target, now: () => d.clock.date() }));
      return { copied: true as const };
    },
    'exchanges.exportHar': async ({ ids, archive }) => {
      const list = ids.map((id) => exchange(id, archive));
      return { json: JSON.stringify(toHar(list, { name: 'Callout', version: d.version }), null, 2), entries: list.length };
    },

    'store.status': async () => ({
      retention: retention.settings(),
      usage: retention.usage(),
      fileBytes: retention.fileBytes(),
      packing: retention.packing(),
      compactAdvised: retention.compactAdvised(),
      recovered: d.recovered(),
      archive: archives.archiver.state(),
    }),
    'store.setRetention': async (settings) => retention.setSettings(settings),
    'store.previewRetention': async (settings) => retention.preview(settings),
    'store.applyRetention': async () => retention.apply(),
    'store.vacuum': async () => retention.vacuum(),
    'store.previewArchive': async ({ before, utcOffsetMinutes }) => retention.previewArchive(before, utcOffsetMinutes),
    'store.archive': async ({ before, utcOffsetMinutes }) => archives.archiver.start(before, utcOffsetMinutes),
    'store.archives': async () => ({ folder: archives.shelf.folder, archives: archives.shelf.list() }),
  };
}
