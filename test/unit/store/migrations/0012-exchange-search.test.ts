import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../../main/store/migrations';
import { openAt, queryPlan, tempDbFile } from './temp-db';

const before = (version: number) => MIGRATIONS[MIGRATIONS.findIndex((m) => m.version === version) - 1]!.version;

describe('migration 0012: exchange search', () => {
  it('is listed with its number and name', () => {
    expect(MIGRATIONS.find((m) => m.version === 12)).toMatchObject({ name: 'exchange-search' });
  });

  it('reads the provider code of exchanges stored before, indexes their text, and keeps the index in step', () => {
    const file = tempDbFile();
    const old = openAt(file, before(12));
    const insert = old.prepare(
      `INSERT INTO exchanges (id, operation, method, url, request_headers, request_body, status, response_headers, response_body, started_at, timings)
       VALUES (?, 'send', 'POST', 'http://x/voice/vm', ?, ?, ?, '[]', ?, ?, '{}')`,
    );
    insert.run(1, '[["X-Trace","needle-4411"]]', '{"mobile":"13800138000"}', 200, '{"code":2,"smsid":"a1"}', 1);
    insert.run(2, '[]', null, 200, '<?xml version="1.0"?><SubmitResult><code>403</code><msg>模板未审核</msg></SubmitResult>', 2);
    insert.run(3, '[]', null, 502, '<html>bad gateway</html>', 3);
    insert.run(4, '[]', null, null, null, 4);
    old.close();
    const db = openAt(file, 12);
    expect(db.prepare('SELECT id, provider_code FROM exchanges ORDER BY id').all()).toEqual([
      { id: 1, provider_code: 2 },
      { id: 2, provider_code: 403 },
      { id: 3, provider_code: null },
      { id: 4, provider_code: null },
    ]);
    const found = (word: string) =>
      (db.prepare('SELECT rowid AS id FROM exchanges_fts WHERE text LIKE ? ORDER BY rowid').all(`%${word}%`) as { id: number }[]).map((r) => r.id);
    expect(found('needle-4411')).toEqual([1]);
    expect(found('0013800')).toEqual([1]);
    expect(found('模板未审核')).toEqual([2]);
    expect(found('BAD GATEWAY')).toEqual([3]);
    // The index answers LIKE itself (trigram), without reading every exchange.
    expect(queryPlan(db, 'SELECT rowid FROM exchanges_fts WHERE text LIKE ?', '%needle%')).toMatch(/VIRTUAL TABLE INDEX/);

    db.prepare(
      `INSERT INTO exchanges (id, operation, method, url, request_headers, response_body, started_at, timings) VALUES (5, 'raw', 'GET', 'http://x/later', '[]', 'fresh-word', 5, '{}')`,
    ).run();
    expect(found('fresh-word')).toEqual([5]);
    db.prepare('DELETE FROM exchanges WHERE id IN (1, 5)').run();
    expect(found('needle-4411')).toEqual([]);
    expect(found('fresh-word')).toEqual([]);
    expect(db.prepare("INSERT INTO exchanges_fts (exchanges_fts) VALUES ('integrity-check')").run()).toBeTruthy();
  });
});
