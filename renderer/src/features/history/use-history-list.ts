// The history list as the screen shows it: pages loaded by keyset cursor as the user scrolls (an
// infinite query), the filter's total, and search pages that stopped at their scan window ("searched
// back to…", continued automatically a few times, then on request). Messages main pushes are applied
// to the cached lists by history-push.ts.
import { useMemo, useState } from 'react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { HistoryFilter, HistoryOrder } from '../../../../common/history-types';
import type { MessageRecord } from '../../../../common/records';
import type { IpcError } from '../../app/api';
import { ask } from '../../app/query';
import { FIRST_PAGE, firstPage } from './head-start';
import { listKey, totalKey, type Page } from './history-push';

export const NEXT_PAGE = 500;
/** Short search pages continued without asking, before offering "keep searching". */
const AUTO_CONTINUE = 4;

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
      const fetchPage = async (): Promise<Page> => {
        const started = performance.now();
        const page = await ask((api) => api.history.page({ filter, order, limit: pageParam === null ? FIRST_PAGE : NEXT_PAGE, cursor: pageParam }));
        return { ...page, ms: Math.round(performance.now() - started) };
      };
      // The first page may have been asked for already, as the person headed for the screen.
      return pageParam === null ? firstPage(filter, order, fetchPage) : fetchPage();
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
