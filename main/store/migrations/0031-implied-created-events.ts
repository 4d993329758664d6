import type { Migration } from './types';

/**
 * A message's first event is no longer stored: its row says it (issue 27: bytes a call). Every send
 * wrote one event when its row was written: `created`, at the row's `created_at`, in state
 * `pending`, with nothing else. A call keeps three events or so, and this one, with its entry in
 * the events' index, took about 55 bytes of the 180 they take. The events of a message are read
 * with it made from the row (message-repository.ts, `events`); sends no longer write it.
 *
 * The events already stored go a batch of messages at a time (the fill below: resumable). One that
 * says anything the row does not (another time, state, detail or reason) is kept, and read as it is.
 */
export const migration0031: Migration = {
  version: 31,
  name: 'implied-created-events',
  up() {
    // Nothing in the schema changes: the fill below deletes what the rows already say.
  },
  fills: [
    {
      table: 'messages',
      batch(db, from, to) {
        db.prepare(
          `DELETE FROM message_events
           WHERE message_id BETWEEN ? AND ? AND kind = 'created' AND state = 'pending' AND detail IS NULL AND reason IS NULL
             AND at = (SELECT m.created_at FROM messages m WHERE m.id = message_events.message_id)`,
        ).run(from, to);
      },
    },
  ],
};
