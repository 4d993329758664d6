// The History screen's first page, asked for as soon as a person opens the screen (the click on its
// navigation item, or Enter), not once the screen's code has loaded and drawn: main
// reads the page while the chunk loads, and the list takes the answer when it mounts. A module of the
// first chunk, without the screen's list hook: only what the request needs (the caller gives the way
// to ask main).
import type { InputOf } from '../../../../common/contract';
import type { HistoryFilter, HistoryOrder, HistoryPage } from '../../../../common/history-types';

/** A page, with how long main took to give it (ms). */
export type Page = HistoryPage & { ms: number };

/** The first page is small, to be on screen at once; the next ones are bigger. */
export const FIRST_PAGE = 100;
/** A head start older than this is not used (the list asks again): the screen was not opened after all. */
export const HEAD_START_MS = 3000;

interface HeadStart {
  at: number;
  page: Promise<Page>;
}

let pending: HeadStart | null = null;

/** The list the screen opens on: every message, newest first (MessagesTab's initial filter and order). */
const opensOn = (filter: HistoryFilter, order: HistoryOrder) => order === 'newest' && Object.keys(filter).length === 0;

/** Asks main (by `page`) for the first page of the list the screen opens on, unless a fresh head start is under way. */
export function startFirstPage(page: (input: InputOf<'history.page'>) => Promise<HistoryPage>, clock: () => number = () => performance.now()): void {
  const now = clock();
  if (pending && now - pending.at < HEAD_START_MS) return;
  const asked = page({ filter: {}, order: 'newest', limit: FIRST_PAGE, cursor: null }).then((p) => ({ ...p, ms: Math.round(clock() - now) }));
  // An error is handled by the list that takes it (it asks again): never unhandled here.
  asked.catch(() => undefined);
  pending = { at: now, page: asked };
}

/**
 * The head start for this list, once, or null: another filter or order, none started, or one too old.
 */
export function takeFirstPage(filter: HistoryFilter, order: HistoryOrder, now: number = performance.now()): HeadStart | null {
  const h = pending;
  pending = null;
  return h && opensOn(filter, order) && now - h.at < HEAD_START_MS ? h : null;
}

/**
 * The first page of this list: the head start's answer when there is one for it, else (or when the
 * head start failed: main may have been busy at the click) the page asked for now by `ask`.
 */
export async function firstPage(filter: HistoryFilter, order: HistoryOrder, ask: () => Promise<Page>, now: number = performance.now()): Promise<Page> {
  const head = takeFirstPage(filter, order, now);
  if (head) {
    try {
      return await head.page;
    } catch {
      // Asked again below, as without a head start.
    }
  }
  return ask();
}

/** Forgets a head start: a message main pushed may be newer than the page it read (the list is not there yet to take it). */
export function dropFirstPage(): void {
  pending = null;
}
