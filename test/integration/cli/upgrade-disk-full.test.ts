// An upgrade that runs out of disk (a real tmpfs, filled while the store is small): the command says
// the disk is full, in the user's language, and exits; the store is neither set aside nor cut short
// (every call reads back once there is room), and the next command goes on with the upgrade and
// answers with every call.
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../main/store/migrations';
import { storedVersion } from '../../../main/store/migrations/fill';
import { writeOldStore } from '../../helpers/old-store';
import { mountSmallDisk, type SmallDisk } from '../../helpers/small-disk';
import { cli } from './run-cli';

const LATEST = MIGRATIONS.at(-1)!.version;
const CALLS = 6_000;
const LEFT = 1_500_000;

const disk = mountSmallDisk(24);
const refused = 'refused' in disk ? disk.refused : null;
if (refused) console.warn(`full-disk upgrade test skipped: ${refused}`);
afterAll(() => {
  if (!refused) (disk as SmallDisk).unmount();
});

function versionOf(file: string): { version: number; filling: boolean; calls: number } {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    const calls = (db.prepare('SELECT count(*) AS n FROM messages').get() as { n: number }).n;
    return { ...storedVersion(db), calls };
  } finally {
    db.close();
  }
}

describe.skipIf(refused !== null)('an upgrade on a disk that fills (24 MB tmpfs)', () => {
  it('says the disk is full, keeps the store as it was, and finishes the upgrade once there is room', async () => {
    const d = disk as SmallDisk;
    const home = join(d.dir, 'home');
    mkdirSync(home);
    const file = writeOldStore(join(home, 'callout.db'), CALLS);
    // Room for the upgrade's first steps, not for all of them: it stops part-way.
    d.fill(LEFT);

    for (const [lang, words] of [
      ['en', /^callout: The disk holding Callout's data is full: the data could not be upgraded to this version of Callout\. Nothing was lost/m],
      ['zh-CN', /^callout: 存放 Callout 数据的磁盘已满：数据无法升级到此版本的 Callout。没有丢失任何内容/m],
    ] as const) {
      const full = await cli(['history', '--lang', lang], { CALLOUT_HOME: home });
      expect(full.code, full.stderr).not.toBe(0);
      expect(full.stderr).toMatch(words);
      expect(full.stdout).toBe('');
      // Not taken for damage: nothing set aside, the store where it was with every call.
      expect(readdirSync(home).filter((n) => n.includes('damaged') || n.includes('corrupt'))).toEqual([]);
      expect(versionOf(file).calls).toBe(CALLS);
      const at = versionOf(file);
      expect(at.version < LATEST || at.filling, JSON.stringify(at)).toBe(true);
    }

    d.free();
    const done = await cli(['history', '--json', '--lang', 'en', '--limit', '1'], { CALLOUT_HOME: home });
    expect(done.code, done.stderr).toBe(0);
    expect(done.stderr).toMatch(new RegExp(`Store upgraded to version ${LATEST}`));
    expect((done.json as Array<{ mobile: string }>)[0]).toMatchObject({ mobile: `138${String(CALLS).padStart(8, '0')}` });
    expect(versionOf(file)).toEqual({ version: LATEST, filling: false, calls: CALLS });
    // The search indexes the upgrade stopped in the middle of are whole: a message by its number, an
    // exchange by a word of its reply, from the first calls (indexed before the disk filled) and the last.
    for (const n of [7, CALLS]) {
      const mobile = `138${String(n).padStart(8, '0')}`;
      const found = await cli(['history', '--json', '--mobile', mobile], { CALLOUT_HOME: home });
      expect((found.json as Array<{ mobile: string }>).map((m) => m.mobile)).toEqual([mobile]);
      const exchanges = await cli(['exchanges', '--json', '--search', `"smsid":"s${n}"`], { CALLOUT_HOME: home });
      expect((exchanges.json as Array<{ messageId: number; operation: string }>).map((e) => [e.messageId, e.operation])).toEqual([[n, 'send']]);
    }
  });
});
