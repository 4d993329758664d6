// The status-query budget of one profile: at most `rate` queries a second on average, with short
// bursts of up to `burst` (a generic cell-rate algorithm: each query books the next free moment).
// A look that would go over the budget waits for its moment; none is dropped.

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

  /** Books one query: the time (≥ now) it may go. */
  book(now: number): number {
    const interval = Math.max(0, this.intervalMs());
    const tolerance = Math.max(0, this.burst - 1) * interval;
    const at = Math.max(now, this.tat - tolerance);
    this.tat = Math.max(this.tat, at) + interval;
    return at;
  }
}
