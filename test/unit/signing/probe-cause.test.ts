import { describe, expect, it } from 'vitest';
import { outsideWindow, probeLikelyCause } from '../../../renderer/src/features/signature/probe-cause';

describe("the variant probe's likely cause", () => {
  it('neither variant accepted with the clock outside the ±300 s window: the clock is the likely cause', () => {
    expect(probeLikelyCause([], 420)).toBe('clock');
    expect(probeLikelyCause([], -301)).toBe('clock');
  });

  it('says nothing of the clock when it is within the window (inclusive), unknown, or a variant was accepted', () => {
    expect(probeLikelyCause([], 300)).toBeNull();
    expect(probeLikelyCause([], -12)).toBeNull();
    expect(probeLikelyCause([], null)).toBeNull();
    expect(probeLikelyCause(['spec'], 900)).toBeNull();
    expect(outsideWindow(300)).toBe(false);
    expect(outsideWindow(300.5)).toBe(true);
  });
});
