import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../../main/store/migrations';
import { columns, upgradeTo } from './temp-db';

describe('migration 0003: profiles', () => {
  it('is the third migration', () => {
    expect(MIGRATIONS[2]).toMatchObject({ version: 3, name: 'profiles' });
  });

  it('adds profiles (no key column) and keeps templates written at version 2', () => {
    const db = upgradeTo(3, (v2) => {
      v2.prepare("INSERT INTO templates (id, name, content, created_at, updated_at) VALUES ('t', 'n', '您好【变量】', 1, 1)").run();
    });
    expect(db.prepare('SELECT id FROM templates').all()).toEqual([{ id: 't' }]);
    const names = columns(db, 'profiles');
    expect(names).toContain('api_id');
    // The API Key lives in the OS keychain, never in the database.
    expect(names.some((c) => /key|secret|password/i.test(c))).toBe(false);
    db.prepare("INSERT INTO profiles (id, name, base_url, api_id, created_at, updated_at) VALUES ('a', 'Ops', 'https://x', 'id', 1, 1)").run();
    expect(db.prepare("SELECT signing, format, builtin FROM profiles WHERE id = 'a'").get()).toEqual({ signing: 'off', format: 'json', builtin: 0 });
    // Names are unique regardless of case.
    expect(() =>
      db.prepare("INSERT INTO profiles (id, name, base_url, api_id, created_at, updated_at) VALUES ('b', 'ops', 'https://x', 'id', 1, 1)").run(),
    ).toThrow(/UNIQUE/);
    expect(() => db.prepare("UPDATE profiles SET signing = 'md5'").run()).toThrow(/CHECK/);
    expect(() => db.prepare("UPDATE profiles SET format = 'yaml'").run()).toThrow(/CHECK/);
  });
});
