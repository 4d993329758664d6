import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../../main/store/migrations';
import { columns, upgradeTo } from './temp-db';

describe('migration 0008: key origin', () => {
  it('is the eighth migration', () => {
    expect(MIGRATIONS[7]).toMatchObject({ version: 8, name: 'key-origin' });
  });

  it('binds the keys of existing profiles to the address they have now, without consent to plain http', () => {
    const db = upgradeTo(8, (v7) => {
      v7.prepare(
        "INSERT INTO profiles (id, name, base_url, api_id, created_at, updated_at) VALUES ('a', 'Ops', 'https://voice.example.com/api', 'id', 1, 1)",
      ).run();
      v7.prepare("INSERT INTO profiles (id, name, base_url, api_id, created_at, updated_at) VALUES ('b', 'Old', 'http://10.0.0.5:8080', 'id', 1, 1)").run();
    });
    expect(columns(db, 'profiles')).toEqual(expect.arrayContaining(['key_origin', 'send_key_unencrypted']));
    expect(db.prepare('SELECT id, key_origin AS keyOrigin, send_key_unencrypted AS consent FROM profiles ORDER BY id').all()).toEqual([
      { id: 'a', keyOrigin: 'https://voice.example.com/api', consent: 0 },
      { id: 'b', keyOrigin: 'http://10.0.0.5:8080', consent: 0 },
    ]);
    expect(() => db.prepare("UPDATE profiles SET send_key_unencrypted = 2 WHERE id = 'a'").run()).toThrow(/CHECK/);
  });
});
