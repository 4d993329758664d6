import type { Migration } from './types';

/**
 * How many exchanges, and how many bytes of theirs, an hour holds (issue 27): `exchange_hours`,
 * kept by triggers as `message_stats` is for messages. Storage's figures (what the exchanges weigh,
 * what a retention setting would free) summed every exchange's size from the (started_at, id,
 * size_bytes) index: at ten million calls (95 million exchanges) that read took 165 s with a cold
 * cache, on main's thread, and the History screen asks for them when it opens. Now they are a sum
 * over the hours (two years: about 17,500 rows), and an age cut reads the index for the part of
 * one hour only.
 *
 * The triggers: an exchange stored adds itself to its hour (with its size as stored; the size
 * trigger of migration 0005 then sets a missing one, which the update trigger adds); one deleted
 * takes itself away (an hour with none left goes); a changed time or size moves it. Filled here from
 * the index, once, a week at a time (one statement before issue 27's upgrade progress).
 */
export const migration0022: Migration = {
  version: 22,
  name: 'exchange-hours',
  up(db, progress) {
    db.exec(`
      CREATE TABLE exchange_hours (
        hour  INTEGER PRIMARY KEY,
        n     INTEGER NOT NULL,
        bytes INTEGER NOT NULL
      ) WITHOUT ROWID;

      CREATE TRIGGER exchange_hours_after_insert AFTER INSERT ON exchanges BEGIN
        INSERT INTO exchange_hours (hour, n, bytes) VALUES (new.started_at / 3600000, 1, coalesce(new.size_bytes, 0))
          ON CONFLICT (hour) DO UPDATE SET n = n + 1, bytes = bytes + excluded.bytes;
      END;
      CREATE TRIGGER exchange_hours_after_update AFTER UPDATE OF started_at, size_bytes ON exchanges
        WHEN old.started_at IS NOT new.started_at OR old.size_bytes IS NOT new.size_bytes BEGIN
        UPDATE exchange_hours SET n = n - 1, bytes = bytes - coalesce(old.size_bytes, 0) WHERE hour = old.started_at / 3600000;
        INSERT INTO exchange_hours (hour, n, bytes) VALUES (new.started_at / 3600000, 1, coalesce(new.size_bytes, 0))
          ON CONFLICT (hour) DO UPDATE SET n = n + 1, bytes = bytes + excluded.bytes;
        DELETE FROM exchange_hours WHERE hour = old.started_at / 3600000 AND n <= 0;
      END;
      CREATE TRIGGER exchange_hours_after_delete AFTER DELETE ON exchanges BEGIN
        UPDATE exchange_hours SET n = n - 1, bytes = bytes - coalesce(old.size_bytes, 0) WHERE hour = old.started_at / 3600000;
        DELETE FROM exchange_hours WHERE hour = old.started_at / 3600000 AND n <= 0;
      END;
    `);
    // Filled from the index a span of days at a time, to say how far it has gone (31 s at ten million
    // calls). Spans meet on whole hours; an hour's sum made in two (its times on both sides of the
    // epoch, where / 3600000 truncates toward zero) adds up.
    const ends = db.prepare('SELECT min(started_at) AS lo, max(started_at) AS hi FROM exchanges INDEXED BY exchanges_time_size').get() as {
      lo: number | null;
      hi: number | null;
    };
    if (ends.lo === null || ends.hi === null) return;
    const span = 7 * 24 * 3_600_000;
    const sum = db.prepare(`
      INSERT INTO exchange_hours (hour, n, bytes)
        SELECT started_at / 3600000, count(*), coalesce(sum(size_bytes), 0) FROM exchanges INDEXED BY exchanges_time_size
        WHERE started_at >= ? AND started_at < ? GROUP BY started_at / 3600000
        ON CONFLICT (hour) DO UPDATE SET n = n + excluded.n, bytes = bytes + excluded.bytes`);
    const first = Math.floor(ends.lo / 3_600_000) * 3_600_000;
    for (let from = first; from <= ends.hi; from += span) {
      sum.run(from, from + span);
      progress(Math.min(from + span, ends.hi + 1) - first, ends.hi + 1 - first);
    }
  },
};
