import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../../main/store/migrations';
import { upgradeTo } from './temp-db';

describe('migration 0001: messages and exchanges', () => {
  it('is the first migration', () => {
    expect(MIGRATIONS[0]).toMatchObject({ version: 1, name: 'messages-and-exchanges' });
  });

  it('creates messages, events and exchanges in an empty database, with events deleted with their message', () => {
    const db = upgradeTo(1, (v0) => {
      // Version 0 is an empty file: nothing to keep.
      expect(v0.prepare('SELECT count(*) AS n FROM sqlite_master').get()).toEqual({ n: 0 });
    });
    db.prepare(
      "INSERT INTO messages (id, profile, base_url, api_id, mobile, content, units, created_at, updated_at) VALUES (1, 'p', 'http://x', 'id', '13800138000', 'hi', 1, 1, 1)",
    ).run();
    expect(db.prepare('SELECT outcome, state, ended_at FROM messages WHERE id = 1').get()).toEqual({ outcome: 'pending', state: 'pending', ended_at: null });
    db.prepare("INSERT INTO message_events (message_id, at, kind) VALUES (1, 1, 'created')").run();
    db.prepare(
      "INSERT INTO exchanges (message_id, operation, method, url, request_headers, started_at, timings) VALUES (1, 'send', 'POST', 'http://x', '[]', 1, '{}')",
    ).run();
    expect(() => db.prepare("UPDATE messages SET outcome = 'maybe' WHERE id = 1").run()).toThrow(/CHECK/);
    expect(() => db.prepare("INSERT INTO message_events (message_id, at, kind) VALUES (99, 1, 'created')").run()).toThrow(/FOREIGN KEY/);
    db.prepare('DELETE FROM messages WHERE id = 1').run();
    expect(db.prepare('SELECT count(*) AS n FROM message_events').get()).toEqual({ n: 0 });
    // The captured exchange stays (it is the record of what went over the wire), unlinked.
    expect(db.prepare('SELECT message_id FROM exchanges').all()).toEqual([{ message_id: null }]);
  });
});
