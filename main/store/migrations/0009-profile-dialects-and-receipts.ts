import type { Migration } from './types';

/**
 * How a profile reads and follows its provider: the reply dialect (a built-in dialect's id, or a
 * dialect of the profile's own as JSON), how its calls are followed to their end (status queries,
 * receipts the provider posts, or both), and where its receipt listener listens (127.0.0.1 unless
 * the user binds it elsewhere; port 0 = chosen at first start, then kept) with its path secret.
 * Existing profiles keep today's behaviour: the spec's reading, followed by polling, no listener.
 */
export const migration0009: Migration = {
  version: 9,
  name: 'profile-dialects-and-receipts',
  up(db) {
    db.exec(`
      ALTER TABLE profiles ADD COLUMN dialect TEXT NOT NULL DEFAULT 'spec';
      ALTER TABLE profiles ADD COLUMN follow TEXT NOT NULL DEFAULT 'poll' CHECK (follow IN ('poll', 'receipts', 'both'));
      ALTER TABLE profiles ADD COLUMN receipts_host TEXT NOT NULL DEFAULT '127.0.0.1';
      ALTER TABLE profiles ADD COLUMN receipts_port INTEGER NOT NULL DEFAULT 0 CHECK (receipts_port BETWEEN 0 AND 65535);
      ALTER TABLE profiles ADD COLUMN receipts_secret TEXT;
    `);
  },
};
