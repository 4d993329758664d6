// Messages main pushes, applied to the cached history lists (updated in place, new ones put at the
// top when they match the filter), at most once a frame. Used by the shell from the first screen on
// (app/live-updates.ts): a module of its own, without the History screen's list hook and model.
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { ExchangeQuery, HistoryFilter, HistoryOrder, HistoryPage } from '../../../../common/history-types';
import type { MessageRecord } from '../../../../common/records';
import type { LiveUpdates } from '../../app/query';
import { dropFirstPage, type Page } from './head-start';
import { matchesFilter } from './history-filter';

export type { Page };
type Pages = InfiniteData<Page, string | null>;

/** The keys of the History screen's message lists. */
export const historyKeys = {
  all: ['history'] as const,
  lists: () => [...historyKeys.all, 'list'] as const,
  list: (filter: HistoryFilter, order: HistoryOrder) => [...historyKeys.lists(), filter, order] as const,
  total: (filter: HistoryFilter) => [...historyKeys.all, 'total', filter] as const,
  overview: (input: object) => [...historyKeys.all, 'overview', input] as const,
};
export const listKey = historyKeys.list;
export const totalKey = historyKeys.total;

/** The keys of captured exchanges (the History screen's exchange list, and what the workbench adds to it). */
export const exchangeKeys = {
  all: ['exchanges'] as const,
  lists: () => [...exchangeKeys.all, 'list'] as const,
  list: (filter: ExchangeQuery) => [...exchangeKeys.lists(), filter] as const,
  detail: (id: number, archive?: string) => [...exchangeKeys.all, 'detail', id, archive ?? null] as const,
};
export const captureKeys = { status: ['capture', 'status'] as const };

/** The list with pushed messages applied (changed rows in place, new matching ones at the top newest first, or at the end oldest first when all is loaded); null when none concerns it. */
function patchPages(data: Pages, updates: readonly MessageRecord[], filter: HistoryFilter, order: HistoryOrder): { data: Pages; fresh: number } | null {
  const where = new Map<number, [page: number, row: number]>();
  data.pages.forEach((p, i) => p.rows.forEach((m, j) => where.set(m.id, [i, j])));
  const pages = data.pages.slice();
  const fresh: MessageRecord[] = [];
  let changed = false;
  for (const m of updates) {
    const at = where.get(m.id);
    if (at) {
      const [i, j] = at;
      const page = pages[i]!;
      const rows = page.rows === data.pages[i]!.rows ? page.rows.slice() : page.rows;
      rows[j] = m;
      pages[i] = { ...page, rows };
      changed = true;
    } else if (matchesFilter(m, filter)) fresh.push(m);
  }
  if (fresh.length && pages.length) {
    if (order === 'newest') {
      const top = pages[0]!;
      const newestShown = top.rows[0];
      const newer = fresh.filter((m) => !newestShown || m.createdAt >= newestShown.createdAt).sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
      if (newer.length) pages[0] = { ...top, rows: newer.concat(top.rows) };
    } else {
      const end = pages.at(-1)!;
      if (end.nextCursor === null) pages[pages.length - 1] = { ...end, rows: end.rows.concat(fresh.sort((a, b) => a.createdAt - b.createdAt || a.id - b.id)) };
    }
  }
  return changed || fresh.length ? { data: { ...data, pages }, fresh: fresh.length } : null;
}

/**
 * Applies messages main pushes to every history list in the cache, at most once a frame; never to
 * a list while it loads a page (that page's answer would replace the patched list): it waits.
 */
export function historyPatcher(client: QueryClient): (message: MessageRecord) => void {
  const pending = new Map<number, MessageRecord>();
  let frame = 0;
  const flush = () => {
    frame = 0;
    const lists = client.getQueryCache().findAll({ queryKey: historyKeys.lists() });
    if (lists.some((q) => q.state.fetchStatus === 'fetching')) {
      frame = window.requestAnimationFrame(flush);
      return;
    }
    const updates = [...pending.values()];
    pending.clear();
    for (const query of lists) {
      const data = query.state.data as Pages | undefined;
      if (!data) continue;
      const [, , filter, order] = query.queryKey as ReturnType<typeof listKey>;
      const patched = patchPages(data, updates, filter, order);
      if (!patched) continue;
      client.setQueryData(query.queryKey, patched.data);
      if (patched.fresh)
        client.setQueryData(totalKey(filter), (c: HistoryPage | undefined) => (c?.total === undefined ? c : { ...c, total: c.total + patched.fresh }));
    }
  };
  return (message) => {
    dropFirstPage();
    pending.set(message.id, message);
    if (!frame) frame = window.requestAnimationFrame(flush);
  };
}

/** Messages main pushes go into the history lists; the capture proxy's state and captured exchanges are shown as they land. */
export const historyLiveUpdates: LiveUpdates = (on, client) => {
  on.messageUpdated(historyPatcher(client));
  let pending: ReturnType<typeof setTimeout> | null = null;
  on.captureUpdated(({ status, exchangeId }) => {
    client.setQueryData(captureKeys.status, status);
    if (exchangeId === null || pending) return;
    pending = setTimeout(() => {
      pending = null;
      void client.invalidateQueries({ queryKey: exchangeKeys.lists(), predicate: (q) => (q.queryKey[2] as ExchangeQuery | undefined)?.captured === true });
    }, 300);
  });
};
