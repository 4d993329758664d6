// The history list as the screen shows it: pages loaded by keyset cursor as the user scrolls, the
// filter's total, search pages that stopped at their scan window ("searched back to…", continued
// automatically a few times, then on request), and messages main pushes (updated in place, new ones
// put at the top when they match the filter). Pushes are applied at most once a frame.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { HistoryFilter, HistoryOrder } from '../../../../common/history-types';
import type { MessageRecord } from '../../../../common/records';
import { call, calloutApi, type IpcError } from '../../app/api';
import { matchesFilter } from './history-model';

/** The first page is small, to be on screen at once; the next ones are bigger. */
export const FIRST_PAGE = 100;
export const NEXT_PAGE = 500;
/** Short search pages continued without asking, before offering "keep searching". */
const AUTO_CONTINUE = 4;

export interface HistoryListState {
  rows: MessageRecord[];
  /** Loading the first page (the list is empty meanwhile). */
  loading: boolean;
  /** Loading a further page. */
  loadingMore: boolean;
  error: IpcError | null;
  nextCursor: string | null;
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
}

const EMPTY: HistoryListState = {
  rows: [],
  loading: true,
  loadingMore: false,
  error: null,
  nextCursor: null,
  total: null,
  totalCapped: false,
  counting: false,
  searchedTo: null,
  stalled: false,
  firstPageMs: null,
};

export interface HistoryList extends HistoryListState {
  /** Loads the next page; `auto` for the end of the list coming into view. */
  loadMore: (auto: boolean) => void;
  reload: () => void;
}

export function useHistoryList(filter: HistoryFilter, order: HistoryOrder): HistoryList {
  const [state, setState] = useState<HistoryListState>(EMPTY);
  const [generation, setGeneration] = useState(0);
  const request = useRef(0);
  const busy = useRef(false);
  const budget = useRef(AUTO_CONTINUE);
  const current = useRef({ filter, order, state });
  current.current = { filter, order, state };
  const key = JSON.stringify(filter) + order;

  useEffect(() => {
    const id = ++request.current;
    busy.current = true;
    budget.current = AUTO_CONTINUE;
    setState(EMPTY);
    const started = performance.now();
    // Rows first; the total (a count, capped) follows in its own request so it never delays them.
    void call((api) => api.history.page({ filter, order, limit: FIRST_PAGE })).then((r) => {
      if (id !== request.current) return;
      busy.current = false;
      if (!r.ok) {
        setState({ ...EMPTY, loading: false, error: r.error });
        return;
      }
      const page = r.value;
      setState(() => ({
        ...EMPTY,
        loading: false,
        rows: page.rows,
        nextCursor: page.nextCursor,
        total: page.nextCursor === null ? page.rows.length : null,
        counting: page.nextCursor !== null,
        searchedTo: page.searchedTo ?? null,
        firstPageMs: Math.round(performance.now() - started),
      }));
      if (page.nextCursor === null) return;
      void call((api) => api.history.page({ filter, order, limit: 1, withTotal: true })).then((c) => {
        if (id !== request.current) return;
        if (!c.ok || c.value.total === undefined) {
          setState((prev) => ({ ...prev, counting: false }));
          return;
        }
        const { total, totalCapped } = c.value;
        setState((prev) => ({ ...prev, total, totalCapped: totalCapped ?? false, counting: false }));
      });
    });
    // `key` stands for filter and order (a new object with the same content must not reload).
  }, [key, generation]);

  const loadMore = useCallback((auto: boolean) => {
    const { filter: f, order: o, state: s } = current.current;
    if (busy.current || !s.nextCursor) return;
    if (auto && (budget.current <= 0 || s.error)) return;
    if (!auto) budget.current = AUTO_CONTINUE;
    const id = request.current;
    busy.current = true;
    setState((prev) => ({ ...prev, loadingMore: true, stalled: false, error: null }));
    void call((api) => api.history.page({ filter: f, order: o, limit: NEXT_PAGE, cursor: s.nextCursor })).then((r) => {
      if (id !== request.current) return;
      busy.current = false;
      if (!r.ok) {
        setState((prev) => ({ ...prev, loadingMore: false, error: r.error }));
        return;
      }
      const page = r.value;
      const short = page.rows.length < NEXT_PAGE && page.nextCursor !== null;
      if (short) budget.current -= 1;
      else budget.current = AUTO_CONTINUE;
      setState((prev) => {
        const seen = new Set(prev.rows.map((m) => m.id));
        const added = page.rows.filter((m) => !seen.has(m.id));
        return {
          ...prev,
          loadingMore: false,
          rows: added.length ? prev.rows.concat(added) : prev.rows,
          nextCursor: page.nextCursor,
          searchedTo: page.searchedTo ?? null,
          stalled: page.nextCursor !== null && budget.current <= 0,
        };
      });
    });
  }, []);

  // Messages main pushes: sends from other screens, call progress, bulk work.
  useEffect(() => {
    const api = calloutApi();
    if (!api) return;
    const pending = new Map<number, MessageRecord>();
    let frame = 0;
    const flush = () => {
      frame = 0;
      const updates = [...pending.values()];
      pending.clear();
      const { filter: f, order: o } = current.current;
      setState((prev) => {
        if (prev.loading || prev.error) return prev;
        const index = new Map(prev.rows.map((m, i) => [m.id, i]));
        let rows = prev.rows;
        const fresh: MessageRecord[] = [];
        for (const m of updates) {
          const at = index.get(m.id);
          if (at !== undefined) {
            if (rows === prev.rows) rows = rows.slice();
            rows[at] = m;
          } else if (matchesFilter(m, f)) {
            fresh.push(m);
          }
        }
        let total = prev.total;
        if (fresh.length) {
          if (o === 'newest') {
            const newestShown = prev.rows[0];
            const newer = fresh.filter((m) => !newestShown || m.createdAt >= newestShown.createdAt).sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
            if (newer.length) rows = newer.concat(rows);
            if (total !== null) total += fresh.length;
          } else {
            if (prev.nextCursor === null) rows = rows.concat(fresh.sort((a, b) => a.createdAt - b.createdAt || a.id - b.id));
            if (total !== null) total += fresh.length;
          }
        }
        return rows === prev.rows && total === prev.total ? prev : { ...prev, rows, total };
      });
    };
    const unsubscribe = api.on.messageUpdated((m) => {
      pending.set(m.id, m);
      if (!frame) frame = window.requestAnimationFrame(flush);
    });
    return () => {
      unsubscribe();
      if (frame) window.cancelAnimationFrame(frame);
    };
  }, []);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { ...state, loadMore, reload };
}
