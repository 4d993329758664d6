// The status-query budget of one profile: at most `rate` queries a second on average, with short
// bursts of up to `burst` (a generic cell-rate algorithm: each query books the next free moment).
// A look that would go over the budget waits for its moment; none is dropped. A booked look may run
// a moment late (a busy event loop) and so closer to the next one than booked: the queries actually
// started are also held to a ceiling per window (`hold`/`started`).

export class PollBudget {
  /** The theoretical arrival time of the next query, ms. */
  private tat = Number.NEGATIVE_INFINITY;

  /**
   * @param intervalMs the average time between two queries (1000 / rate), read at every booking (lines may change)
   * @param burst how many queries may go at once after a quiet time
   */
  constructor(
    private readonly intervalMs: () => number,
    private readonly burst: number,
  ) {}

  /** Start times of the latest queries (at most the ceiling's count), oldest first. */
  private readonly recent: number[] = [];

  /**
   * How long a query about to start must still wait so that no window of `windowMs` holds more than
   * `max` started queries (0: it may go now). Call `started` when it goes.
   */
  hold(now: number, max: number, windowMs: number): number {
    while (this.recent.length > max) this.recent.shift();
    if (this.recent.length < max) return 0;
    return Math.max(0, this.recent[0]! + windowMs - now);
  }

  started(now: number): void {
    this.recent.push(now);
  }

  /** Books one query: the time (≥ now) it may go. */
  book(now: number): number {
    const interval = Math.max(0, this.intervalMs());
    const tolerance = Math.max(0, this.burst - 1) * interval;
    const at = Math.max(now, this.tat - tolerance);
    this.tat = Math.max(this.tat, at) + interval;
    return at;
  }
}
