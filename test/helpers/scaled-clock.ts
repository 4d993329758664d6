import { systemClock, type Clock, type TimerHandle } from '../../main/clock';

/**
 * The wall clock sped up: each of its seconds passes in `scale` real seconds (0.01: a hundred times
 * faster), timers and all. For code that runs against real sockets or in another process, where a
 * manual clock cannot be moved past I/O in flight (a benchmark, a child process, a test against the
 * sandbox over HTTP). Everything on it runs faster alike, the transport's timeouts too: keep
 * `scale` where a local request still fits in them. Tests of timing behaviour use a ManualClock.
 */
export class ScaledClock implements Clock {
  private readonly origin = systemClock.now();

  constructor(readonly scale: number) {
    if (!(scale > 0)) throw new RangeError('scale must be > 0');
  }

  now(): number {
    return this.origin + (systemClock.now() - this.origin) / this.scale;
  }

  date(): Date {
    return new Date(this.now());
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    return systemClock.setTimeout(fn, ms * this.scale);
  }

  setInterval(fn: () => void, ms: number): TimerHandle {
    return systemClock.setInterval(fn, ms * this.scale);
  }

  wakeAt(at: number, fn: () => void): TimerHandle {
    return this.setTimeout(fn, at - this.now());
  }

  /** The clock's milliseconds that pass in `ms` real ones (a timeout meant in real time). */
  fromReal(ms: number): number {
    return ms / this.scale;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return systemClock.sleep(ms * this.scale, signal);
  }
}

/**
 * The fastest clock the tests against the sandbox over HTTP use: twenty times faster, so that the
 * transport's timeouts (5 s to connect, 15 s in all) still leave 250 ms and 750 ms of real time on
 * a loaded machine.
 */
export const FASTEST_SCALE = 0.05;
