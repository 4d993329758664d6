// Following a call to its end, one module: a pure core (core.ts, with the learned call timings in
// timings.ts, the look schedule in plan.ts and the status-query budget in budget.ts) and the driver
// that runs it on the Clock and does the I/O (follower.ts); end-watcher.ts waits for settled messages.
export {
  Follower,
  DEFAULT_MAX_AGE_MS,
  STATUS_QUERIES_PER_LINE_PER_SECOND,
  STATUS_QUERY_BURST_SECONDS,
  type FollowerOptions,
  type LookResult,
} from './follower';
export { CallClock, redialAfter, type CallClockOptions, type LearnedRedialWait } from './timings';
export { EndWatcher, type EndWatcherOptions } from './end-watcher';
