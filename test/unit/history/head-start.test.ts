// The History screen's first page asked for as a person opens the screen (renderer/src/features/history/head-start.ts).
import { beforeEach, describe, expect, it } from 'vitest';
import { dropFirstPage, FIRST_PAGE, firstPage, HEAD_START_MS, startFirstPage, takeFirstPage } from '../../../renderer/src/features/history/head-start';

const asked: unknown[] = [];
/** main's side: the page asked for, as the n-th request. */
const page = async (input: unknown) => (asked.push(input), { rows: [], nextCursor: String(asked.length) });
const startAt = (now: number) => startFirstPage(page, () => now);

beforeEach(() => {
  asked.length = 0;
  dropFirstPage();
});

describe('the first page of History, asked for at the click', () => {
  it('is the list the screen opens on (every message, newest first), taken once by that list', async () => {
    startAt(1000);
    expect(asked).toEqual([{ filter: {}, order: 'newest', limit: FIRST_PAGE, cursor: null }]);
    const head = takeFirstPage({}, 'newest', 1200);
    expect(head?.at).toBe(1000);
    expect(await head!.page).toEqual({ rows: [], nextCursor: '1', ms: 0 });
    // Once: the screen opened again asks afresh.
    expect(takeFirstPage({}, 'newest', 1300)).toBeNull();
  });

  it('is not used for another filter or order, nor when it is too old, nor after a message was pushed', () => {
    startAt(0);
    expect(takeFirstPage({ states: ['answered'] }, 'newest', 10)).toBeNull();
    startAt(0);
    expect(takeFirstPage({}, 'oldest', 10)).toBeNull();
    startAt(0);
    expect(takeFirstPage({}, 'newest', HEAD_START_MS)).toBeNull();
    startAt(0);
    dropFirstPage();
    expect(takeFirstPage({}, 'newest', 10)).toBeNull();
  });

  it('asks main once for clicks close together, and again once the head start is stale', () => {
    startAt(0);
    startAt(50);
    startAt(HEAD_START_MS - 1);
    expect(asked).toHaveLength(1);
    startAt(HEAD_START_MS + 1);
    expect(asked).toHaveLength(2);
  });

  it('gives the list its page: the head start when it has one, else (or when the head start failed) a page asked for then', async () => {
    const now = { rows: [], nextCursor: 'asked at mount', ms: 5 };
    const mount = async () => now;
    startAt(0);
    expect(await firstPage({}, 'newest', mount, 10)).toEqual({ rows: [], nextCursor: '1', ms: 0 });
    expect(await firstPage({}, 'newest', mount, 20)).toBe(now);
    startFirstPage(
      async () => Promise.reject(new Error('main busy')),
      () => 0,
    );
    expect(await firstPage({}, 'newest', mount, 10)).toBe(now);
    startAt(0);
    expect(await firstPage({ search: '13800' }, 'newest', mount, 10)).toBe(now);
  });
});
