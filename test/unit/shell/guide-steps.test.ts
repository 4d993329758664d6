import { describe, expect, it } from 'vitest';
import { guideStepStatus } from '../../../renderer/src/features/onboarding/step-status';

describe("the guide's steps", () => {
  it('a step passed over without its work is skipped, not done', () => {
    // On step 3 (templates) with no provider profile: "connect to the provider" was skipped.
    expect(guideStepStatus(1, 2, false)).toBe('skipped');
    expect(guideStepStatus(1, 2, true)).toBe('done');
  });

  it('the open step is current; steps ahead are to come unless their work is already there; a look-only step is done once passed', () => {
    expect(guideStepStatus(2, 2, true)).toBe('current');
    expect(guideStepStatus(3, 2, false)).toBe('todo');
    expect(guideStepStatus(3, 1, true)).toBe('done');
    expect(guideStepStatus(0, 2, false, true)).toBe('done');
  });
});
