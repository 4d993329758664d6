import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../../main/store/migrations';
import { upgradeTo } from './temp-db';

describe('migration 0002: templates', () => {
  it('is the second migration', () => {
    expect(MIGRATIONS[1]).toMatchObject({ version: 2, name: 'templates' });
  });

  it('adds templates and keeps the messages written at version 1', () => {
    const db = upgradeTo(2, (v1) => {
      v1.prepare(
        "INSERT INTO messages (profile, base_url, api_id, mobile, content, units, created_at, updated_at) VALUES ('p', 'http://x', 'id', '13800138000', 'kept', 1, 1, 1)",
      ).run();
    });
    expect(db.prepare('SELECT content FROM messages').get()).toEqual({ content: 'kept' });
    db.prepare("INSERT INTO templates (id, name, content, created_at, updated_at) VALUES ('t', 'n', '您好【变量】', 1, 1)").run();
    expect(db.prepare("SELECT approved, marker_names FROM templates WHERE id = 't'").get()).toEqual({ approved: 0, marker_names: '[]' });
    expect(() => db.prepare("INSERT INTO templates (id, name, content, approved, created_at, updated_at) VALUES ('u', 'n', 'x', 2, 1, 1)").run()).toThrow(
      /CHECK/,
    );
    expect(() => db.prepare("INSERT INTO templates (id, name, content, created_at, updated_at) VALUES ('t', 'again', 'x', 1, 1)").run()).toThrow(
      /UNIQUE|PRIMARY KEY/,
    );
  });
});
