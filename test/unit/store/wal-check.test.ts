// A damaged WAL is detected and said, the files kept aside as found, the database opened with what
// was committed before the damage. The files are snapshots of a live store (db, -wal, -shm copied
// while it is open, as a crash or a kill -9 leaves them), then damaged the way a disk does.
import { afterEach, describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore, type Store } from '../../../main/store';
import { checkWal } from '../../../main/store/wal-check';
import { databasePath } from '../../../main/store/paths';
import { tempHome } from '../../helpers/temp-home';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

function home() {
  const h = tempHome('callout-wal-');
  cleanups.push(h.cleanup);
  return h.dir;
}

/** A store with `n` templates, each committed on its own, copied (db, -wal, -shm) while still open. */
function crashedStore(n: number): { dir: string; file: string } {
  const live = home();
  const store = openStore(live);
  for (let i = 1; i <= n; i++) store.templates.save({ id: `t${i}`, name: `T${i}`, content: `模板${i}：【变量】`, approved: true });
  const dir = home();
  for (const suffix of ['', '-wal', '-shm']) copyFileSync(databasePath(live) + suffix, databasePath(dir) + suffix);
  store.close();
  return { dir, file: databasePath(dir) };
}

const PAGE = 4096;
const frameAt = (i: number) => 32 + i * (24 + PAGE);
const frames = (file: string) => Math.floor((statSync(`${file}-wal`).size - 32) / (24 + PAGE));

function open(dir: string): Store {
  const s = openStore(dir);
  cleanups.push(() => s.close());
  return s;
}

describe('the WAL check at open', () => {
  it('finds nothing wrong in a WAL a crash left intact: every committed row is there', () => {
    const { dir, file } = crashedStore(20);
    expect(checkWal(file)).toBeNull();
    const s = open(dir);
    expect(s.recovered).toBeNull();
    expect(s.templates.list()).toHaveLength(20);
  });

  it('a frame damaged in the middle (committed transactions after it): said, files kept aside as found, the rows before it kept', () => {
    const { dir, file } = crashedStore(20);
    const n = frames(file);
    const wal = readFileSync(`${file}-wal`);
    const victim = n - 8; // a few transactions before the end
    wal[frameAt(victim) + 24 + 100]! ^= 0xff; // one flipped byte in the page
    writeFileSync(`${file}-wal`, wal);
    const damage = checkWal(file);
    expect(damage?.reason).toMatch(new RegExp(`WAL frame ${victim + 1} fails its checksum`));
    const s = open(dir);
    expect(s.recovered).toMatchObject({ kind: 'wal', reason: damage!.reason });
    const kept = s.recovered!.movedTo;
    expect(kept).toMatch(/callout\.db\.wal-damaged-\d{8}T\d{6}Z$/);
    // Kept exactly as found: the damaged WAL byte for byte.
    expect(readFileSync(`${kept}-wal`).equals(wal)).toBe(true);
    expect(existsSync(kept)).toBe(true);
    // The database opened with what was committed before the damage (some rows, not all).
    const rows = s.templates.list().length;
    expect(rows).toBeGreaterThan(0);
    expect(rows).toBeLessThan(20);
  });

  it('a WAL cut short (its index says more was committed): said, and kept aside', () => {
    const { dir, file } = crashedStore(20);
    truncateSync(`${file}-wal`, frameAt(Math.floor(frames(file) / 2)) + 1000);
    expect(checkWal(file)?.reason).toMatch(/index says \d+ were committed/);
    const s = open(dir);
    expect(s.recovered).toMatchObject({ kind: 'wal' });
    expect(existsSync(`${s.recovered!.movedTo}-wal`)).toBe(true);
  });

  it('a damaged WAL header with frames after it: said', () => {
    const { file } = crashedStore(5);
    const wal = readFileSync(`${file}-wal`);
    wal[20]! ^= 0x01; // salt-2: the header checksum no longer matches
    writeFileSync(`${file}-wal`, wal);
    expect(checkWal(file)?.reason).toMatch(/header is damaged/);
  });

  it('half a frame at the end (a crash while writing an uncommitted transaction) is not damage', () => {
    const { dir, file } = crashedStore(10);
    const wal = readFileSync(`${file}-wal`);
    writeFileSync(`${file}-wal`, Buffer.concat([wal, wal.subarray(frameAt(0), frameAt(0) + 1500)]));
    expect(checkWal(file)).toBeNull();
    const s = open(dir);
    expect(s.recovered).toBeNull();
    expect(s.templates.list()).toHaveLength(10);
  });

  it('a store closed cleanly has no WAL to check', () => {
    const dir = home();
    openStore(dir).close();
    expect(existsSync(join(dir, 'callout.db-wal'))).toBe(false);
    expect(checkWal(databasePath(dir))).toBeNull();
  });
});
