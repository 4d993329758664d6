import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../../main/store/migrations';
import { queryPlan, upgradeTo } from './temp-db';

describe('migration 0006: bulk and contacts', () => {
  it('is the sixth migration', () => {
    expect(MIGRATIONS[5]).toMatchObject({ version: 6, name: 'bulk-and-contacts' });
  });

  it('adds batches, contacts, dial limits and profile lines, keeping profiles and messages written at version 5', () => {
    const db = upgradeTo(6, (v5) => {
      v5.prepare("INSERT INTO profiles (id, name, base_url, api_id, created_at, updated_at) VALUES ('p', 'Ops', 'https://x', 'id', 1, 1)").run();
      v5.prepare(
        "INSERT INTO messages (id, profile, base_url, api_id, mobile, content, units, created_at, updated_at) VALUES (7, 'p', 'http://x', 'id', '13800138000', 'hi', 1, 1, 1)",
      ).run();
    });
    // Existing profiles get one line; lines must be positive.
    expect(db.prepare('SELECT lines FROM profiles').get()).toEqual({ lines: 1 });
    expect(() => db.prepare("UPDATE profiles SET lines = 0 WHERE id = 'p'").run()).toThrow(/CHECK/);
    // The default per-number limits and quiet hours exist.
    expect(db.prepare("SELECT per_minute, per_hour, per_day, quiet_start, quiet_end FROM dial_settings WHERE scope = '*'").get()).toEqual({
      per_minute: 1,
      per_hour: 5,
      per_day: 20,
      quiet_start: '22:00',
      quiet_end: '08:00',
    });
    db.prepare("INSERT INTO batches (id, profile, name, created_at, updated_at) VALUES (1, 'p', 'list.csv', 1, 1)").run();
    db.prepare("INSERT INTO batch_items (batch_id, row_number, mobile, content, message_id, updated_at) VALUES (1, 2, '13800138000', 'hi', 7, 1)").run();
    expect(() => db.prepare("UPDATE batch_items SET status = 'sent'").run()).toThrow(/CHECK/);
    expect(() => db.prepare("UPDATE batches SET status = 'stopped'").run()).toThrow(/CHECK/);
    // The next queued item of a batch is read from the index, without a sort.
    const plan = queryPlan(db, "SELECT * FROM batch_items WHERE batch_id = 1 AND status = 'queued' AND id > 0 ORDER BY id LIMIT 200");
    expect(plan).toMatch(/USING INDEX batch_items_next/);
    expect(plan).not.toMatch(/TEMP B-TREE/);
    // Deleting a message keeps the item (unlinked); deleting a batch deletes its items.
    db.prepare('DELETE FROM messages WHERE id = 7').run();
    expect(db.prepare('SELECT message_id FROM batch_items').get()).toEqual({ message_id: null });
    db.prepare('DELETE FROM batches WHERE id = 1').run();
    expect(db.prepare('SELECT count(*) AS n FROM batch_items').get()).toEqual({ n: 0 });
    // Group members go with their contact; the order in a group is kept.
    db.prepare("INSERT INTO contacts (id, name, mobile, created_at, updated_at) VALUES (1, '张三', '13800138000', 1, 1), (2, 'Li', '13900139000', 1, 1)").run();
    db.prepare("INSERT INTO contact_groups (id, name, created_at, updated_at) VALUES (1, 'On call', 1, 1)").run();
    db.prepare('INSERT INTO contact_group_members (group_id, contact_id, position) VALUES (1, 2, 0), (1, 1, 1)').run();
    db.prepare('DELETE FROM contacts WHERE id = 2').run();
    expect(db.prepare('SELECT contact_id FROM contact_group_members').all()).toEqual([{ contact_id: 1 }]);
  });
});
