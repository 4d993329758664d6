import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../../main/store/migrations';
import { ExchangeRepository } from '../../../../main/store/exchange-repository';
import { HistoryRepository } from '../../../../main/store/history-repository';
import { applyRetention } from '../../../../main/store/retention';
import { migrate } from '../../../../main/store/database';
import { columns, queryPlan, upgradeTo } from './temp-db';

const post = (startedAt: number) => ({
  operation: 'receipt' as const,
  method: 'POST',
  url: 'http://127.0.0.1:8080/%5BREDACTED%5D',
  requestHeaders: [['Content-Type', 'application/json']] as [string, string][],
  requestBody: '[{"smsid":"a","state":"busy"},{"smsid":"b","state":"busy"}]',
  status: 200,
  statusText: 'OK',
  responseHeaders: [] as [string, string][],
  responseBody: '{"code":2,"msg":"ok"}',
  error: null,
  startedAt,
  timings: { dnsMs: null, connectMs: null, tlsMs: null, firstByteMs: 1, totalMs: 1 },
});

function fromVersion15() {
  return upgradeTo(16, (v15) => {
    const message = v15.prepare(
      "INSERT INTO messages (id, profile, base_url, api_id, mobile, content, units, created_at, updated_at) VALUES (?, 'p', 'http://x', 'id', '13800138000', 'hi', 1, 1, 1)",
    );
    message.run(1);
    message.run(2);
    // Before 0016 a post naming two messages was stored once per message (as that version's writer stored it).
    const p = post(1000);
    const insert = v15.prepare(
      `INSERT INTO exchanges (message_id, operation, profile, method, url, request_headers, request_body, status, status_text, response_headers, response_body, started_at, timings)
       VALUES (?, ?, 'p', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const id of [1, 2]) {
      insert.run(
        id,
        p.operation,
        p.method,
        p.url,
        JSON.stringify(p.requestHeaders),
        p.requestBody,
        p.status,
        p.statusText,
        '[]',
        p.responseBody,
        p.startedAt,
        JSON.stringify(p.timings),
      );
    }
  });
}

describe('migration 0016: one exchange, several messages', () => {
  it('is the sixteenth migration', () => {
    expect(MIGRATIONS[15]).toMatchObject({ version: 16, name: 'exchange-messages' });
  });

  it('keeps the copies stored before with their messages, and stores a new post once, listed with each message it names', () => {
    const db = fromVersion15();
    expect(columns(db, 'exchange_messages')).toEqual(['message_id', 'started_at', 'exchange_id']);
    const repo = new ExchangeRepository(db);
    const history = new HistoryRepository(db);
    for (const id of [1, 2]) {
      expect(repo.forMessage(id).map((e) => e.messageId)).toEqual([id]);
      expect(history.listExchanges({ messageId: id }).rows).toHaveLength(1);
    }
    migrate(db, db.name); // today's writer needs today's schema (it packs exchanges: migration 0020)
    const fresh = repo.insert(post(2000), { messageIds: [1, 2], profile: 'p' });
    expect(db.prepare('SELECT count(*) AS n FROM exchanges').get()).toEqual({ n: 3 });
    for (const id of [1, 2]) {
      expect(repo.forMessage(id).map((e) => e.startedAt)).toEqual([1000, 2000]);
      expect(history.listExchanges({ messageId: id }).rows.map((e) => e.id)).toContain(fresh);
    }
    // A message's links are read from the key, an exchange's (the cascade of retention) from its index.
    expect(queryPlan(db, 'SELECT exchange_id FROM exchange_messages WHERE message_id = ? ORDER BY started_at', 2)).toMatch(
      /SEARCH exchange_messages USING PRIMARY KEY \(message_id=\?\)$/,
    );
    expect(queryPlan(db, 'SELECT 1 FROM exchange_messages WHERE exchange_id = ?', fresh)).toMatch(
      /USING COVERING INDEX exchange_messages_exchange \(exchange_id=\?\)/,
    );
    applyRetention(db, { exchangeDays: null, exchangeMaxBytes: 0 });
    expect(db.prepare('SELECT (SELECT count(*) FROM exchanges) AS exchanges, (SELECT count(*) FROM exchange_messages) AS links').get()).toEqual({
      exchanges: 0,
      links: 0,
    });
  });
});
