import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../../main/store/migrations';
import { WorkbenchRepository } from '../../../../main/store/workbench-repository';
import { openAt, tempDbFile } from './temp-db';

/** The version just before `version` in the list (other branches' migrations may sit in between once merged). */
const before = (version: number) => MIGRATIONS[MIGRATIONS.findIndex((m) => m.version === version) - 1]!.version;

describe('migration 0011: saved requests', () => {
  it('is listed with its number and name', () => {
    expect(MIGRATIONS.find((m) => m.version === 11)).toMatchObject({ name: 'saved-requests' });
  });

  it('adds collections, requests, environments and runs to a database with exchanges; results follow what they link', () => {
    const file = tempDbFile();
    const old = openAt(file, before(11));
    old
      .prepare(
        `INSERT INTO exchanges (id, operation, method, url, request_headers, started_at, timings) VALUES (7, 'raw', 'POST', 'http://x/voice/balance', '[]', 1, '{}')`,
      )
      .run();
    old.close();
    const db = openAt(file, 11);
    const repo = new WorkbenchRepository(db);
    const c = repo.saveCollection({ name: 'Smoke', description: '', variables: [{ name: 'mobile', value: '13800138000' }] }, 1);
    const r = repo.saveRequest(
      {
        collectionId: c.id,
        name: 'Balance',
        request: {
          method: 'POST',
          path: '/voice/balance',
          headers: [],
          omit: [],
          body: { kind: 'none' },
          credentials: 'body',
          format: 'json',
          signing: 'profile',
        },
        assertions: [{ kind: 'code', equals: 2 }],
        captures: [],
      },
      2,
    );
    expect(repo.collection(c.id)).toMatchObject({
      name: 'Smoke',
      variables: [{ name: 'mobile', value: '13800138000' }],
      requests: [{ id: r.id, position: 0, assertions: [{ kind: 'code', equals: 2 }] }],
    });
    expect(() => repo.saveCollection({ name: 'SMOKE', description: '', variables: [] })).toThrow(/already a collection/);
    repo.saveEnvironment({ name: 'Local', profileId: 'sandbox', variables: [] });
    expect(() => repo.saveEnvironment({ name: 'local', profileId: 'sandbox', variables: [] })).toThrow(/already an environment/);

    const run = repo.startRun({ collectionId: c.id, collectionName: 'Smoke', environmentName: null, profile: 'sandbox', total: 1 }, 3);
    repo.addResult(run, {
      position: 0,
      requestId: r.id,
      name: 'Balance',
      exchangeId: 7,
      outcome: 'passed',
      status: 200,
      providerCode: 2,
      assertions: [],
      problem: null,
      failure: null,
      ms: 3,
    });
    expect(repo.finishRun(run, 4)).toMatchObject({ status: 'passed', passed: 1, endedAt: 4, results: [{ exchangeId: 7 }] });

    // Retention deletes the exchange, the request and the collection go: the run and its result stay, unlinked.
    db.prepare('DELETE FROM exchanges WHERE id = 7').run();
    repo.removeCollection(c.id);
    expect(db.prepare('SELECT count(*) AS n FROM collection_requests').get()).toEqual({ n: 0 });
    expect(repo.run(run)).toMatchObject({ collectionId: null, collectionName: 'Smoke', results: [{ exchangeId: null, requestId: null, outcome: 'passed' }] });
  });
});
