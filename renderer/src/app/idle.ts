// Work that can wait until the browser has nothing better to do (fetching the chunks a screen will
// probably need next, once it is up). Returns a function that cancels it.
export function whenIdle(work: () => void, timeoutMs = 3000): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(work, { timeout: timeoutMs });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(work, 200);
  return () => window.clearTimeout(id);
}

/** `work` a moment after now (the screen just shown has painted and settled), when the browser is idle. */
export function afterSettling(work: () => void, delayMs = 500): () => void {
  let cancelIdle = () => {};
  const id = window.setTimeout(() => (cancelIdle = whenIdle(work)), delayMs);
  return () => {
    window.clearTimeout(id);
    cancelIdle();
  };
}
