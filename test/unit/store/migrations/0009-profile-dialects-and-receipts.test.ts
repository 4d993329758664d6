import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../../main/store/migrations';
import { ProfileRepository } from '../../../../main/store/profile-repository';
import { builtinDialect, SPEC_DIALECT } from '../../../../common/dialects';
import { columns, upgradeTo } from './temp-db';

/** A version-8 database with two profiles, as the app saved them before dialects. */
function fromVersion7() {
  return upgradeTo(9, (v7) => {
    for (const c of ['dialect', 'follow', 'receipts_host', 'receipts_port', 'receipts_secret']) expect(columns(v7, 'profiles')).not.toContain(c);
    v7.prepare(
      "INSERT INTO profiles (id, name, base_url, api_id, signing, created_at, updated_at) VALUES ('p', 'Ops', 'https://voice.example.com', 'id-1', 'spec', 1, 1)",
    ).run();
    v7.prepare(
      "INSERT INTO profiles (id, name, base_url, api_id, builtin, created_at, updated_at) VALUES ('sandbox', 'Sandbox', 'http://sandbox.callout.invalid', 'sandbox-demo', 1, 1, 1)",
    ).run();
  });
}

describe('migration 0009: profile dialects and receipts', () => {
  it('is the eighth migration', () => {
    expect(MIGRATIONS[8]).toMatchObject({ version: 9, name: 'profile-dialects-and-receipts' });
  });

  it('keeps every existing profile on the spec reading, followed by polling, with no listener', () => {
    const db = fromVersion7();
    const repo = new ProfileRepository(db);
    for (const id of ['p', 'sandbox']) {
      expect(repo.get(id)).toMatchObject({ dialectId: 'spec', follow: 'poll', receipts: { host: '127.0.0.1', port: 0, secret: null } });
      expect(repo.get(id)!.dialect).toEqual(SPEC_DIALECT);
    }
    // What the profile form saves leaves them as they are.
    repo.save({
      id: 'p',
      name: 'Ops',
      baseUrl: 'https://voice.example.com',
      apiId: 'id-2',
      signing: 'spec',
      format: 'xml',
      connectTimeoutMs: 5000,
      totalTimeoutMs: 15000,
      lowBalanceThreshold: null,
    });
    expect(repo.get('p')).toMatchObject({ apiId: 'id-2', dialectId: 'spec', follow: 'poll' });
  });

  it('stores a built-in dialect by id and a dialect of the profile’s own as JSON, and the listener settings', () => {
    const db = fromVersion7();
    const repo = new ProfileRepository(db);
    repo.setDialect('p', 'numeric-states');
    expect(repo.get('p')).toMatchObject({ dialectId: 'numeric-states', dialect: builtinDialect('numeric-states') });
    const own = {
      ...builtinDialect('numeric-states')!,
      id: undefined,
      name: 'Ours',
      status: { ...builtinDialect('numeric-states')!.status!, states: { '200002': 'busy' as const } },
    };
    repo.setDialect('p', JSON.stringify(own));
    expect(repo.get('p')).toMatchObject({ dialectId: null, dialect: { name: 'Ours', status: { states: { '200002': 'busy' } } } });
    repo.setFollow('p', 'both', { host: '0.0.0.0', port: 0, secret: 's'.repeat(32) });
    repo.keepReceiptPort('p', 48123);
    repo.keepReceiptPort('p', 50000); // only a port of 0 is replaced
    expect(repo.get('p')).toMatchObject({ follow: 'both', receipts: { host: '0.0.0.0', port: 48123, secret: 's'.repeat(32) } });
  });

  it('refuses a follow mode or a port it does not know, and reads a damaged dialect as the spec’s', () => {
    const db = fromVersion7();
    expect(() => db.prepare("UPDATE profiles SET follow = 'push' WHERE id = 'p'").run()).toThrow(/CHECK/);
    expect(() => db.prepare("UPDATE profiles SET receipts_port = 70000 WHERE id = 'p'").run()).toThrow(/CHECK/);
    db.prepare("UPDATE profiles SET dialect = '{\"name\": 1}' WHERE id = 'p'").run();
    expect(new ProfileRepository(db).get('p')).toMatchObject({ dialectId: 'spec' });
  });
});
