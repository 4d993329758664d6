import { describe, expect, it } from 'vitest';
import { random } from '../../helpers/random';
import {
  blockOf,
  pageInTimeOrder,
  startId,
  TIME_BLOCK_BITS,
  type Candidate,
  type Settled,
  type TimeBlock,
  type TimeBounds,
} from '../../../main/store/time-blocks';

const BLOCK = 2 ** TIME_BLOCK_BITS;
type Shape = 'rising' | 'ties' | 'clock set back' | 'shuffled' | 'one clock far off';

/** Matches spread over 30 blocks of ids, their times as each shape has them. */
function matches(r: () => number, shape: Shape): Candidate[] {
  const ids = new Set<number>();
  while (ids.size < 1500) ids.add(Math.floor(r() * 30 * BLOCK));
  const sorted = [...ids].sort((a, b) => a - b);
  return sorted.map((id, i) => {
    let at = 1_000_000 + id * 10;
    if (shape === 'ties') at = 1_000_000 + Math.floor(id / 5000) * 10; // many equal times
    if (shape === 'clock set back' && i > 700 && i < 760) at -= 3 * BLOCK * 10; // a clock set back three blocks' worth
    if (shape === 'shuffled') at = 1_000_000 + Math.floor(r() * 30 * BLOCK * 10);
    if (shape === 'one clock far off' && i === 5) at += 1e9; // an old message stored by a clock set years ahead
    if (shape === 'one clock far off' && i === 1490) at -= 1e9; // a new one by a clock set years behind
    return { id, created_at: at, ok: r() < 0.8 };
  });
}

function blocksOf(rows: Candidate[], r: () => number, widen: boolean): TimeBlock[] {
  const m = new Map<number, TimeBlock>();
  for (const x of rows) {
    const b = m.get(blockOf(x.id)) ?? { block: blockOf(x.id), min: x.created_at, max: x.created_at };
    b.min = Math.min(b.min, x.created_at);
    b.max = Math.max(b.max, x.created_at);
    m.set(b.block, b);
  }
  // Bounds left wider by deleted messages are still bounds.
  if (widen) for (const b of m.values()) if (r() < 0.3) [b.min, b.max] = [b.min - Math.floor(r() * 5000), b.max + Math.floor(r() * 5000)];
  return [...m.values()].sort((a, b) => a.block - b.block);
}

function reference(rows: Candidate[], desc: boolean, b: TimeBounds, need: number): number[] {
  const cmp = (x: Candidate, y: { created_at: number; id: number }) => x.created_at - y.created_at || x.id - y.id;
  return rows
    .filter((x) => x.ok)
    .filter((x) => (b.from === undefined || x.created_at >= b.from) && (b.to === undefined || x.created_at < b.to))
    .filter((x) => !b.cursor || (desc ? cmp(x, { created_at: b.cursor[0], id: b.cursor[1] }) < 0 : cmp(x, { created_at: b.cursor[0], id: b.cursor[1] }) > 0))
    .sort((x, y) => (desc ? -cmp(x, y) : cmp(x, y)))
    .slice(0, need)
    .map((x) => x.id);
}

/** The candidates as the search index gives them: from the start id, in id order; counts what was read. */
function read(rows: Candidate[], desc: boolean, start: number | null): { it: Iterable<Candidate>; count: () => number } {
  let n = 0;
  const inOrder = desc ? [...rows].reverse() : rows;
  const from = inOrder.filter((x) => start === null || (desc ? x.id <= start : x.id >= start));
  return {
    it: (function* () {
      for (const x of from) {
        n++;
        yield x;
      }
    })(),
    count: () => n,
  };
}

/**
 * `settled` as the repository answers it from the time index: the messages between the cursor and
 * `last` not read yet (an id past `at`); told only when at most `window` are between and `unread` not read.
 */
function settledBy(messages: Candidate[], desc: boolean, b: TimeBounds, window: number, unread = 100): Settled {
  const sorts = (x: { created_at: number; id: number }, y: { created_at: number; id: number }) =>
    desc
      ? x.created_at > y.created_at || (x.created_at === y.created_at && x.id > y.id)
      : x.created_at < y.created_at || (x.created_at === y.created_at && x.id < y.id);
  return (last, at) => {
    const between = messages.filter((m) => sorts(m, last) && (!b.cursor || sorts({ created_at: b.cursor[0], id: b.cursor[1] }, m)));
    const rest = between.filter((m) => (desc ? m.id < at : m.id > at));
    return between.length < window && rest.length <= unread ? rest : null;
  };
}

/** A page the read could tell whole (not `null`). */
function inOrder(...args: Parameters<typeof pageInTimeOrder>) {
  const page = pageInTimeOrder(...args);
  expect(page).not.toBeNull();
  return page!;
}

describe('a page in time order from matches read in id order', () => {
  for (const shape of ['rising', 'ties', 'clock set back', 'shuffled', 'one clock far off'] as const) {
    it(`gives exactly the page a sort of every match gives — ${shape}`, () => {
      const r = random(shape.length * 7919);
      const rows = matches(r, shape);
      const lo = rows[0]!.created_at;
      const hi = Math.max(...rows.map((x) => x.created_at));
      for (let trial = 0; trial < 400; trial++) {
        const blocks = blocksOf(rows, r, trial % 2 === 1);
        const desc = r() < 0.5;
        const need = 1 + Math.floor(r() * 120);
        const t = () => lo + Math.floor(r() * (hi - lo + 20)) - 10;
        const b: TimeBounds = {};
        if (r() < 0.3) b.from = t();
        if (r() < 0.3) b.to = t();
        if (r() < 0.5) {
          const c = rows[Math.floor(r() * rows.length)]!;
          b.cursor = [c.created_at + (r() < 0.2 ? 1 : 0), c.id];
        }
        const start = startId(blocks, desc, b);
        const expected = reference(rows, desc, b, need);
        if (start === 'none') {
          expect(expected, JSON.stringify(b)).toEqual([]);
          continue;
        }
        const got = inOrder(blocks, desc, b, read(rows, desc, start).it, need).map((x) => x.id);
        expect(got, `${shape} ${desc ? 'newest' : 'oldest'} ${need} ${JSON.stringify(b)}`).toEqual(expected);
        // Told sooner by the time index (a window that sometimes cannot tell): the same page.
        const settled = settledBy(rows, desc, b, trial % 3 === 0 ? 50 : Infinity);
        const sooner = inOrder(blocks, desc, b, read(rows, desc, start).it, need, settled).map((x) => x.id);
        expect(sooner, `${shape} ${desc ? 'newest' : 'oldest'} ${need} ${JSON.stringify(b)}, settled`).toEqual(expected);
      }
    });
  }

  it('reads about a page of matches, not all of them, when ids rise with time', () => {
    const r = random(5);
    const rows = matches(r, 'rising');
    const blocks = blocksOf(rows, r, false);
    const perBlock = Math.max(...blocks.map((b) => rows.filter((x) => blockOf(x.id) === b.block).length));
    for (const desc of [true, false]) {
      const reader = read(rows, desc, null);
      const page = inOrder(blocks, desc, {}, reader.it, 101);
      expect(page).toHaveLength(101);
      // The page's rows (and the ones failing the other filters among them), then the rest of one block at most.
      expect(reader.count()).toBeLessThanOrEqual(Math.ceil(101 / 0.7) + perBlock);
      expect(reader.count()).toBeLessThan(rows.length / 3);
    }
    // Told by the time index once the page holds its rows: no more than the page's rows read.
    for (const desc of [true, false]) {
      const reader = read(rows, desc, null);
      const page = inOrder(blocks, desc, {}, reader.it, 101, settledBy(rows, desc, {}, 2000));
      expect(page.map((x) => x.id)).toEqual(reference(rows, desc, {}, 101));
      // Exactly the matches up to the page's last row.
      let ok = 0;
      const upTo = (desc ? [...rows].reverse() : rows).findIndex((x) => x.ok && ++ok === 101) + 1;
      expect(reader.count()).toBe(upTo);
    }
    // A later page starts at its cursor's block, not at the end of the ids.
    const c = rows[600]!;
    const start = startId(blocks, true, { cursor: [c.created_at, c.id] });
    expect(start).toBe((blockOf(c.id) + 1) * BLOCK - 1);
    const later = read(rows, true, start as number);
    const page = inOrder(blocks, true, { cursor: [c.created_at, c.id] }, later.it, 101);
    expect(page.map((x) => x.id)).toEqual(reference(rows, true, { cursor: [c.created_at, c.id] }, 101));
    expect(later.count()).toBeLessThanOrEqual(Math.ceil(101 / 0.7) + 2 * perBlock);
  });

  it('a message stored by a clock set back by a moment still takes its place in the page', () => {
    // Ten messages in block 2; one in block 1 and one in block 3 whose times fall between two of them.
    const rows: Candidate[] = [
      { id: BLOCK + 7, created_at: 5_000, ok: true },
      { id: BLOCK + 9, created_at: 10_051, ok: true },
      ...Array.from({ length: 10 }, (_, i) => ({ id: 2 * BLOCK + i, created_at: 10_000 + 10 * i, ok: true })),
      { id: 3 * BLOCK + 1, created_at: 10_049, ok: true },
    ];
    const blocks = blocksOf(rows, random(1), false);
    const newest = inOrder(blocks, true, {}, read(rows, true, null).it, 5).map((x) => x.created_at);
    expect(newest).toEqual([10_090, 10_080, 10_070, 10_060, 10_051]);
    const oldest = inOrder(blocks, false, {}, read(rows, false, null).it, 8).map((x) => x.created_at);
    expect(oldest).toEqual([5_000, 10_000, 10_010, 10_020, 10_030, 10_040, 10_049, 10_050]);
  });

  it('a message stored by a clock set years off is named by the time index and taken: still about a page read', () => {
    const r = random(13);
    const rows = matches(r, 'one clock far off');
    const blocks = blocksOf(rows, r, false);
    for (const desc of [true, false]) {
      // The blocks' bounds cannot stop the read (one block's time is years off)…
      expect(inOrder(blocks, desc, {}, read(rows, desc, null).it, 101).length).toBe(101);
      const unbounded = read(rows, desc, null);
      inOrder(blocks, desc, {}, unbounded.it, 101);
      expect(unbounded.count()).toBe(rows.length);
      // …the time index can: the page holds the message set off (first newest first, last oldest first).
      const reader = read(rows, desc, null);
      const page = inOrder(blocks, desc, {}, reader.it, 101, settledBy(rows, desc, {}, 2000));
      expect(page.map((x) => x.id)).toEqual(reference(rows, desc, {}, 101));
      expect(page.map((x) => x.id)).toContain(rows[desc ? 5 : 1490]!.id);
      // The message set behind is read with the first rows (its page's last row then): asked again after twice the reads.
      expect(reader.count()).toBeLessThan(2 * 160);
    }
  });

  it('gives up after `cap` matches read when neither the bounds nor the time index can tell', () => {
    const r = random(17);
    const rows = matches(r, 'one clock far off');
    const blocks = blocksOf(rows, r, false);
    const reader = read(rows, true, null);
    expect(pageInTimeOrder(blocks, true, {}, reader.it, 101, () => null, 500)).toBeNull();
    expect(reader.count()).toBe(501);
    // Told whole within the cap: the page.
    expect(pageInTimeOrder(blocks, true, {}, read(rows, true, null).it, 101, settledBy(rows, true, {}, 2000), 500)).toHaveLength(101);
  });

  it('stops at the range: nothing before `from` (newest first) is read past its block', () => {
    const r = random(9);
    const rows = matches(r, 'rising');
    const blocks = blocksOf(rows, r, false);
    const from = rows[1400]!.created_at;
    const reader = read(rows, true, null);
    const page = inOrder(blocks, true, { from }, reader.it, 500);
    expect(page.map((x) => x.id)).toEqual(reference(rows, true, { from }, 500));
    expect(reader.count()).toBeLessThan(300);
  });
});
