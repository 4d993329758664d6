/**
 * A page of messages in time order, read from candidates in id order (issue 27): the search index
 * gives its matches by id, and a page wants them by (created_at, id). Reading every match to sort
 * them costs one row read each (thousands, scattered over the file). Instead the matches are read
 * from the page's end of the ids, the best `need` kept, and the read stops once no message left
 * can enter the page: the bounds of each block of ids (migration 0023, `message_time_blocks`) say
 * how new (or old) the rest can be. Ids rise with time in practice, so about a page's rows are read;
 * where they do not (a clock set back), the bounds are wider and more is read, never a wrong page,
 * and the time index names the few messages stored out of order (`Settled`).
 */

/** A block holds the ids sharing `id >> TIME_BLOCK_BITS`. */
export const TIME_BLOCK_BITS = 14;
const BLOCK = 2 ** TIME_BLOCK_BITS;

export interface TimeBlock {
  block: number;
  min: number;
  max: number;
}

export interface TimeRow {
  id: number;
  created_at: number;
}

export interface Candidate extends TimeRow {
  /** The page's other filters hold (SQLite's 1 or 0). */
  ok: boolean | number;
}

export interface TimeBounds {
  /** created_at ≥ from */
  from?: number;
  /** created_at < to */
  to?: number;
  /** Rows after this (created_at, id) in the page's order. */
  cursor?: [number, number] | null;
}

export const blockOf = (id: number): number => Math.floor(id / BLOCK);

/**
 * Where the read starts: the highest id (newest first) or lowest (oldest first) a row of the page
 * can have, `null` for the end of the ids, or `'none'` when no block can hold one.
 */
export function startId(blocks: readonly TimeBlock[], desc: boolean, b: TimeBounds): number | null | 'none' {
  const [ct] = b.cursor ?? [];
  if (desc) {
    if (ct === undefined && b.to === undefined) return null;
    for (let i = blocks.length - 1; i >= 0; i--) {
      const k = blocks[i]!;
      if ((ct === undefined || k.min <= ct) && (b.to === undefined || k.min < b.to)) return (k.block + 1) * BLOCK - 1;
    }
    return 'none';
  }
  if (ct === undefined && b.from === undefined) return null;
  for (const k of blocks) {
    if ((ct === undefined || k.max >= ct) && (b.from === undefined || k.max >= b.from)) return k.block * BLOCK;
  }
  return 'none';
}

/**
 * The messages that sort before `last` in the page's order (and after the cursor) but were not read
 * yet (an id past `at` in the reading order: < `at` newest first, > `at` oldest first), as
 * candidates (`ok` when they match the search and the filters): once they are taken, no candidate
 * left can enter the page. `null` when that cannot be told cheaply (too many messages between).
 */
export type Settled = (last: TimeRow, at: number) => Candidate[] | null;

/**
 * The first `need` rows in (created_at, id) order (descending when `desc`) among `candidates`,
 * which come in id order from the page's end (descending ids when `desc`). Stops reading as soon as
 * the blocks' bounds show no candidate left can enter. `settled`, asked when the page first holds
 * `need` rows (then after twice the reads, and so on), can tell so sooner: a common word's page is
 * among the newest messages, and a message stored by a clock set wrong is named and taken. `null`
 * when `cap` candidates were read and the page could not be told whole: the caller reads it
 * another way.
 */
export function pageInTimeOrder(
  blocks: readonly TimeBlock[],
  desc: boolean,
  b: TimeBounds,
  candidates: Iterable<Candidate>,
  need: number,
  settled?: Settled,
  cap = Infinity,
): TimeRow[] | null {
  // Of the blocks at or past each one, in reading order: the newest (desc) or oldest (asc) time.
  const reach = new Map<number, number>();
  let edge = desc ? -Infinity : Infinity;
  const ordered = desc ? blocks : [...blocks].reverse();
  for (const k of ordered) {
    edge = desc ? Math.max(edge, k.max) : Math.min(edge, k.min);
    reach.set(k.block, edge);
  }
  const before = (x: TimeRow, y: TimeRow) =>
    desc
      ? x.created_at > y.created_at || (x.created_at === y.created_at && x.id > y.id)
      : x.created_at < y.created_at || (x.created_at === y.created_at && x.id < y.id);
  const cursor = b.cursor ? { created_at: b.cursor[0], id: b.cursor[1] } : null;
  const kept: TimeRow[] = [];
  const take = (c: Candidate) => {
    if (!c.ok) return;
    if (b.from !== undefined && c.created_at < b.from) return;
    if (b.to !== undefined && c.created_at >= b.to) return;
    if (cursor && !before(cursor, c)) return;
    if (kept.length === need && !before(c, kept[need - 1]!)) return;
    let i = Math.min(kept.length, need - 1);
    if (kept.length < need) kept.push(c);
    while (i > 0 && before(c, kept[i - 1]!)) {
      kept[i] = kept[i - 1]!;
      i--;
    }
    kept[i] = { id: c.id, created_at: c.created_at };
  };
  let ask = 0;
  let read = 0;
  for (const c of candidates) {
    const r = reach.get(blockOf(c.id));
    // The rule relies on every message's block having bounds (migration 0023 fills them, its triggers keep them).
    if (r !== undefined) {
      // Past the range: nothing left is in it.
      if (desc ? b.from !== undefined && r < b.from : b.to !== undefined && r >= b.to) return kept;
      // The page is full and nothing left sorts before its last row (an equal time has a lower id, desc, or higher, asc).
      const last = kept[need - 1];
      if (last && (desc ? r <= last.created_at : r >= last.created_at)) return kept;
    }
    if (++read > cap) return null;
    take(c);
    // Asked when the page first holds its rows, then again each time as many were read again.
    if (settled && kept.length === need && read >= ask) {
      const rest = settled(kept[need - 1]!, c.id);
      if (rest) {
        rest.forEach(take);
        return kept;
      }
      ask = read * 2;
    }
  }
  return kept;
}
