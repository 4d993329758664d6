import type { ManualClock } from '../../main/clock';

/**
 * Moves a manual clock from timer to timer until `work` settles, and returns its result: what would
 * take minutes of waiting on the wall clock takes the time the code needs. Fails when nothing is
 * left to wait for and `work` still has not settled (it waits for something that never comes).
 */
export async function drive<T>(clock: ManualClock, work: Promise<T>, limitMs = 24 * 3600_000): Promise<T> {
  let done = false;
  work.then(
    () => (done = true),
    () => (done = true),
  );
  const end = clock.now() + limitMs;
  for (let idle = 0; !done;) {
    const next = clock.nextAt();
    if (next === null || next > end) {
      if (++idle > 50) throw new Error('drive: no timer left and the work has not settled');
      await clock.advance(0);
      continue;
    }
    idle = 0;
    await clock.advanceTo(next);
  }
  return work;
}
