// How each step of the guide is shown: the one open now, done (ticked: only when it really was done),
// skipped (passed over without doing it), or still to come. Pure: the guide and its test use it.

export type GuideStepStatus = 'current' | 'done' | 'skipped' | 'todo';

/**
 * `done`: whether the step's work is there (a provider profile with a key, a template...). A step
 * behind the current one that was not done was skipped: never ticked as done. `visitOnly` steps
 * (a look at the Sandbox) are done once passed.
 */
export function guideStepStatus(index: number, current: number, done: boolean, visitOnly = false): GuideStepStatus {
  if (index === current) return 'current';
  if (done) return 'done';
  if (index < current) return visitOnly ? 'done' : 'skipped';
  return 'todo';
}
