import { lazy, Suspense } from 'react';
import { useAppInfo } from './query';

// The banner is its own chunk (its folder is copyable: antd's Typography), fetched when a problem
// is first reported: a rare moment, and the console's own server answers within milliseconds.
const StorageProblem = lazy(() => import('./StorageProblem'));

/**
 * Callout cannot write its data (a full disk): said on every screen until writing works again.
 * Sends whose result is only in memory are counted: their number and text are refused meanwhile.
 */
export function StorageBanner() {
  const problem = useAppInfo()?.storageProblem ?? null;
  if (!problem) return null;
  return (
    <Suspense fallback={null}>
      <StorageProblem problem={problem} />
    </Suspense>
  );
}
