import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../../main/store/migrations';
import { columns, upgradeTo } from './temp-db';

describe('migration 0015: a refusal that stopped lending', () => {
  it('is the fifteenth migration', () => {
    expect(MIGRATIONS[14]).toMatchObject({ version: 15, name: 'lend-refusal' });
  });

  it('leaves lending on existing profiles as it was: not stopped', () => {
    const db = upgradeTo(15, (v14) => {
      v14
        .prepare(
          "INSERT INTO profiles (id, name, base_url, api_id, created_at, updated_at, lend_lines) VALUES ('a', 'Ops', 'https://voice.example.com/api', 'id', 1, 1, 1)",
        )
        .run();
    });
    expect(columns(db, 'profiles')).toContain('lend_refused_at');
    expect(db.prepare("SELECT lend_lines AS lend, lend_refused_at AS refusedAt FROM profiles WHERE id = 'a'").get()).toEqual({ lend: 1, refusedAt: null });
  });
});
