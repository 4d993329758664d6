import type { Migration } from './types';

/**
 * Call attempts (the provider redials when nobody answers: each redial is a timeline event), and
 * the link from a deliberate "send again" to the message whose outcome was unknown.
 */
export const migration0004: Migration = {
  version: 4,
  name: 'call-attempts-and-resends',
  up(db) {
    db.exec(`
      ALTER TABLE messages ADD COLUMN attempts INTEGER;
      ALTER TABLE messages ADD COLUMN resend_of INTEGER REFERENCES messages (id) ON DELETE SET NULL;
      CREATE INDEX messages_template ON messages (template_id, created_at) WHERE template_id IS NOT NULL;
    `);
  },
};
