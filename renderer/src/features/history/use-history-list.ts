// The history list as the screen shows it: pages loaded by keyset cursor as the user scrolls (an
// infinite query), the filter's total, search pages that stopped at their scan window ("searched
// back to…", continued automatically a few times, then on request), and messages main pushes
// (updated in place, new ones put at the top when they match the filter), applied at most once a frame.
import { useMemo, useState } from 'react';
import { useInfiniteQuery, useQuery, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import type { HistoryFilter, HistoryOrder, HistoryPage } from '../../../../common/history-types';
import type { MessageRecord } from '../../../../common/records';
import type { IpcError } from '../../app/api';
import { ask } from '../../app/query';
import { matchesFilter } from './history-model';

/** The first page is small, to be on screen at once; the next ones are bigger. */
export const FIRST_PAGE = 100;
export const NEXT_PAGE = 500;
/** Short search pages continued without asking, before offering "keep searching". */
const AUTO_CONTINUE = 4;

/** A page, with how long main took to give it (ms). */
type Page = HistoryPage & { ms: number };
type Pages = InfiniteData<Page, string | null>;

const listKey = (filter: HistoryFilter, order: HistoryOrder) => ['history.page', 'list', filter, order] as const;
const totalKey = (filter: HistoryFilter) => ['history.page', 'total', filter] as const;

export interface HistoryList {
  rows: MessageRecord[];
  /** Loading the first page (the list is empty meanwhile). */
  loading: boolean;
  /** Loading a further page. */
  loadingMore: boolean;
  error: IpcError | null;
  /** There are further pages. */
  hasMore: boolean;
  total: number | null;
  totalCapped: boolean;
  /** The total is being counted. */
  counting: boolean;
  /** The last page stopped at its scan window: rows were checked down to (up to) this time. */
  searchedTo: number | null;
  /** Automatic continuation used up: the footer offers "keep searching". */
  stalled: boolean;
  /** ms from asking for the first page to having it. */
  firstPageMs: number | null;
  /** Loads the next page; `auto` for the end of the list coming into view. */
  loadMore: (auto: boolean) => void;
  reload: () => void;
}

const isShort = (p: Page) => p.rows.length < NEXT_PAGE && p.nextCursor !== null;

export function useHistoryList(filter: HistoryFilter, order: HistoryOrder): HistoryList {
  const list = useInfiniteQuery({
    queryKey: listKey(filter, order),
    queryFn: async ({ pageParam }): Promise<Page> => {
      const started = performance.now();
      const page = await ask((api) => api.history.page({ filter, order, limit: pageParam === null ? FIRST_PAGE : NEXT_PAGE, cursor: pageParam }));
      return { ...page, ms: Math.round(performance.now() - started) };
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    // Kept as loaded (pushes patch it): loading it again would fetch every page. Another filter
    // or order starts from its first page, and so does the screen opened again.
    staleTime: Infinity,
    gcTime: 0,
  });
  const pages = list.data?.pages;
  const first = pages?.[0];
  // The total (a count, capped) comes in its own request so it never delays the rows.
  const counted = useQuery({
    queryKey: totalKey(filter),
    queryFn: () => ask((api) => api.history.page({ filter, limit: 1, withTotal: true })),
    enabled: first !== undefined && first.nextCursor !== null,
    staleTime: Infinity,
    gcTime: 0,
  });
  // "Keep searching" restarts the automatic continuation from the pages loaded at that moment.
  const [resumed, setResumed] = useState({ key: '', at: 0 });
  const key = JSON.stringify(listKey(filter, order));

  const rows = useMemo(() => {
    const seen = new Set<number>();
    const out: MessageRecord[] = [];
    for (const m of (pages ?? []).flatMap((p) => p.rows)) {
      if (seen.has(m.id)) continue;
      seen.add(m.id);
      out.push(m);
    }
    return out;
  }, [pages]);

  let shortRun = 0;
  for (const p of pages?.slice(Math.max(1, resumed.key === key ? resumed.at : 0)) ?? []) shortRun = isShort(p) ? shortRun + 1 : 0;
  const hasMore = list.hasNextPage;
  const stalled = hasMore && shortRun >= AUTO_CONTINUE;
  const lastPage = pages?.at(-1);
  const total = first && first.nextCursor === null ? rows.length : (counted.data?.total ?? null);

  return {
    rows,
    loading: list.isPending,
    loadingMore: list.isFetchingNextPage,
    error: list.error,
    hasMore,
    total,
    totalCapped: counted.data?.totalCapped ?? false,
    counting: counted.isFetching,
    searchedTo: lastPage?.searchedTo ?? null,
    stalled,
    firstPageMs: first?.ms ?? null,
    loadMore: (auto) => {
      if (list.isFetching || !hasMore) return;
      if (auto && (stalled || list.isError)) return;
      if (!auto) setResumed({ key, at: pages?.length ?? 0 });
      void list.fetchNextPage();
    },
    reload: () => void list.refetch(),
  };
}

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
    const lists = client.getQueryCache().findAll({ queryKey: ['history.page', 'list'] });
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
      if (patched.fresh) client.setQueryData(totalKey(filter), (c: HistoryPage | undefined) => (c?.total === undefined ? c : { ...c, total: c.total + patched.fresh }));
    }
  };
  return (message) => {
    pending.set(message.id, message);
    if (!frame) frame = window.requestAnimationFrame(flush);
  };
}
