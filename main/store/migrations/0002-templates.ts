import type { Migration } from './types';

/**
 * The local template library: templates are registered in the provider's console, not through
 * the API, so Callout keeps its own copy with the review state the user marks.
 */
export const migration0002: Migration = {
  version: 2,
  name: 'templates',
  up(db) {
    db.exec(`
      CREATE TABLE templates (
        id           TEXT    PRIMARY KEY,
        name         TEXT    NOT NULL,
        content      TEXT    NOT NULL,
        approved     INTEGER NOT NULL DEFAULT 0 CHECK (approved IN (0, 1)),
        marker_names TEXT    NOT NULL DEFAULT '[]',
        created_at   INTEGER NOT NULL,
        updated_at   INTEGER NOT NULL
      );
    `);
  },
};
