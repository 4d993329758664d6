import { systemClock, type Clock, type TimerHandle } from '../clock';

/**
 * The sandbox's time: a thin layer over the one Clock that adds the sandbox's time scale (a feature:
 * the Sandbox screen and `callout sandbox --time-scale` speed calls up) and tracks its timers, so
 * that close() cancels every one of them.
 */
export class Scheduler {
  private readonly timers = new Set<TimerHandle>();
  private stopped = false;

  /**
   * @param timeScale multiplies simulated durations (1 = real time, 0.001 = 1000x faster, 0 = at once).
   * It may change while the sandbox runs (the app's Sandbox screen): what is already scheduled keeps its time.
   * @param clock the time it runs on; default systemClock.
   */
  constructor(
    public timeScale: number,
    readonly clock: Clock = systemClock,
  ) {}

  /** Milliseconds since the epoch on the clock (real milliseconds, not simulated). */
  now(): number {
    return this.clock.now();
  }

  /** Runs `fn` after `simMs` simulated milliseconds. */
  afterSim(simMs: number, fn: () => void): void {
    this.afterReal(simMs * this.timeScale, fn);
  }

  /** Runs `fn` after `ms` real milliseconds. */
  afterReal(ms: number, fn: () => void): void {
    if (this.stopped) return;
    const t = this.clock.setTimeout(
      () => {
        this.timers.delete(t);
        fn();
      },
      Math.max(0, ms),
    );
    this.timers.add(t);
  }

  /** Resolves after `ms` real milliseconds; never resolves once the scheduler is stopped. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.afterReal(ms, resolve));
  }

  /** Real milliseconds → simulated milliseconds (0 when timeScale is 0). */
  toSim(realMs: number): number {
    return this.timeScale > 0 ? realMs / this.timeScale : 0;
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) t.cancel();
    this.timers.clear();
  }
}
