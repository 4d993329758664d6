import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../../main/store/migrations';
import { ExchangeRepository } from '../../../../main/store/exchange-repository';
import { MessageRepository, parseReason } from '../../../../main/store/message-repository';
import { reason } from '../../../../common/reasons';
import { columns, upgradeTo } from './temp-db';

const timeout = reason('transport', { kind: 'connect-timeout', ms: 5000 });
const stopped = reason('stop', { kind: 'interrupted' });
const duplicate = reason('duplicate', { row: 2 });

/** A version-6 database with a message that went unknown, its timeline, and a paused batch with a skipped item. */
function fromVersion6() {
  return upgradeTo(7, (v6) => {
    for (const table of ['messages', 'message_events', 'batch_items']) expect(columns(v6, table)).not.toContain('reason');
    expect(columns(v6, 'batches')).not.toContain('status_reason');
    v6.prepare("INSERT INTO profiles (id, name, base_url, api_id, created_at, updated_at) VALUES ('p', 'Ops', 'https://x', 'id', 1, 1)").run();
    v6.prepare(
      `INSERT INTO messages (id, profile, base_url, api_id, mobile, content, units, outcome, state, error_kind, error_message, created_at, updated_at)
       VALUES (7, 'p', 'http://x', 'id', '13800138000', 'hi', 1, 'unknown', 'unknown', 'timeout', 'The request timed out after 5000 ms.', 1, 2)`,
    ).run();
    v6.prepare("INSERT INTO message_events (message_id, at, kind, state) VALUES (7, 1, 'created', 'pending')").run();
    v6.prepare(
      "INSERT INTO message_events (message_id, at, kind, state, detail) VALUES (7, 2, 'unknown', 'unknown', 'The request timed out after 5000 ms.')",
    ).run();
    v6.prepare(
      "INSERT INTO batches (id, profile, name, status, paused_reason, status_message, created_at, updated_at) VALUES (1, 'p', 'list.csv', 'paused', 'interrupted', 'Callout stopped while the batch was running.', 1, 1)",
    ).run();
    v6.prepare(
      "INSERT INTO batch_items (id, batch_id, row_number, mobile, content, status, error_kind, error, updated_at) VALUES (1, 1, 3, '13800138000', 'hi', 'skipped', 'duplicate', 'Same as row 2.', 1)",
    ).run();
  });
}

describe('migration 0007: coded reasons', () => {
  it('is the seventh migration', () => {
    expect(MIGRATIONS[6]).toMatchObject({ version: 7, name: 'coded-reasons' });
  });

  it('adds the reason columns; rows written at version 6 keep a NULL reason and their old text', () => {
    const db = fromVersion6();
    for (const table of ['messages', 'message_events', 'batch_items']) expect(columns(db, table)).toContain('reason');
    expect(columns(db, 'batches')).toContain('status_reason');

    const messages = new MessageRepository(db);
    expect(messages.get(7)).toMatchObject({ id: 7, outcome: 'unknown', errorKind: 'timeout', reason: null });
    expect(messages.events(7).map((e) => [e.kind, e.reason])).toEqual([
      ['created', null],
      ['unknown', null],
    ]);
    expect(db.prepare('SELECT error_message FROM messages WHERE id = 7').get()).toEqual({ error_message: 'The request timed out after 5000 ms.' });
    expect(db.prepare('SELECT paused_reason, status_message, status_reason FROM batches WHERE id = 1').get()).toEqual({
      paused_reason: 'interrupted',
      status_message: 'Callout stopped while the batch was running.',
      status_reason: null,
    });
    expect(db.prepare('SELECT error, reason FROM batch_items WHERE id = 1').get()).toEqual({ error: 'Same as row 2.', reason: null });
  });

  it('reads a reason written as JSON back as a code with its parameters', () => {
    const db = fromVersion6();
    const messages = new MessageRepository(db);
    db.prepare('UPDATE messages SET reason = ? WHERE id = 7').run(JSON.stringify(timeout));
    db.prepare("INSERT INTO message_events (message_id, at, kind, state, reason) VALUES (7, 3, 'error', NULL, ?)").run(JSON.stringify(timeout));
    expect(messages.get(7)?.reason).toEqual(timeout);
    expect(messages.events(7).at(-1)).toMatchObject({ kind: 'error', reason: timeout });

    // The repository writes the same form into the new columns.
    messages.endTracking(7, reason('tracking-timeout', {}));
    expect(messages.get(7)?.reason).toEqual(timeout); // the first reason is kept
    expect(messages.events(7).at(-1)).toMatchObject({ kind: 'error', reason: { code: 'tracking-timeout', params: {} } });
    expect(db.prepare('SELECT reason FROM message_events ORDER BY id DESC LIMIT 1').get()).toEqual({ reason: JSON.stringify(reason('tracking-timeout', {})) });
  });

  it('stores why a batch stopped and why an item was skipped', () => {
    const db = fromVersion6();
    db.prepare('UPDATE batches SET status_reason = ? WHERE id = 1').run(JSON.stringify(stopped));
    db.prepare('UPDATE batch_items SET reason = ? WHERE id = 1').run(JSON.stringify(duplicate));
    const batch = db.prepare('SELECT status_reason FROM batches WHERE id = 1').get() as { status_reason: string | null };
    const item = db.prepare('SELECT reason FROM batch_items WHERE id = 1').get() as { reason: string | null };
    expect(parseReason(batch.status_reason)).toEqual(stopped);
    expect(parseReason(item.reason)).toEqual(duplicate);
    // Items written from now on carry only the code; the old text column stays empty.
    db.prepare(
      "INSERT INTO batch_items (batch_id, row_number, mobile, content, status, reason, updated_at) VALUES (1, 4, '13900139000', 'hi', 'skipped', ?, 1)",
    ).run(JSON.stringify(duplicate));
    expect(db.prepare('SELECT error, reason FROM batch_items WHERE row_number = 4').get()).toEqual({ error: null, reason: JSON.stringify(duplicate) });
  });

  it('keeps the timeout a transport failure ran into, so its words can say it; older exchanges have none', () => {
    const db = upgradeTo(7, (v6) => {
      expect(columns(v6, 'exchanges')).not.toContain('error_ms');
      v6.prepare(
        `INSERT INTO exchanges (id, operation, method, url, request_headers, error_kind, error_message, started_at, timings)
         VALUES (1, 'send', 'POST', 'http://x/voice/vm', '[]', 'timeout', 'No complete reply within 15000 ms.', 1, '{}')`,
      ).run();
    });
    const exchanges = new ExchangeRepository(db);
    expect(exchanges.get(1)?.error).toEqual({ kind: 'timeout', message: 'No complete reply within 15000 ms.' });
    // Written as version 7 knows exchanges (the repository of today writes columns of later migrations).
    db.prepare(
      `INSERT INTO exchanges (id, operation, method, url, request_headers, error_kind, error_message, error_ms, started_at, timings)
       VALUES (2, 'status', 'POST', 'http://x/voice/status', '[]', 'connect-timeout', 'No connection within 5000 ms.', 5000, 2, '{}')`,
    ).run();
    expect(exchanges.get(2)?.error).toEqual({ kind: 'connect-timeout', message: 'No connection within 5000 ms.', ms: 5000 });
  });
});
