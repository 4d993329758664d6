import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../../main/store/migrations';
import { columns, upgradeTo } from './temp-db';

describe('migration 0014: lending lines', () => {
  it('is the fourteenth migration', () => {
    expect(MIGRATIONS[13]).toMatchObject({ version: 14, name: 'lend-lines' });
  });

  it('lends the lines of existing profiles, as before this version, and takes only on or off', () => {
    const db = upgradeTo(14, (v13) => {
      v13
        .prepare("INSERT INTO profiles (id, name, base_url, api_id, created_at, updated_at) VALUES ('a', 'Ops', 'https://voice.example.com/api', 'id', 1, 1)")
        .run();
    });
    expect(columns(db, 'profiles')).toContain('lend_lines');
    expect(db.prepare("SELECT lend_lines AS lend FROM profiles WHERE id = 'a'").get()).toEqual({ lend: 1 });
    expect(() => db.prepare("UPDATE profiles SET lend_lines = 2 WHERE id = 'a'").run()).toThrow(/CHECK/);
  });
});
