import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_WINDOW_STATE,
  fitToDisplays,
  loadWindowState,
  parseWindowState,
  saveWindowState,
  trackWindowState,
  windowStatePath,
} from '../../../main/window-state';
import { FakeBrowserWindow } from '../../fixtures/fake-electron';
import { ManualClock } from '../../../main/clock';

const SCREEN = { x: 0, y: 0, width: 1920, height: 1040 };
const RIGHT_SCREEN = { x: 1920, y: 0, width: 2560, height: 1400 };

let dir: string;
let file: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'callout-window-state-'));
  file = windowStatePath(dir);
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('parseWindowState', () => {
  it('accepts a well-formed state', () => {
    expect(parseWindowState({ x: 10, y: 20, width: 1300, height: 900, maximized: true })).toEqual({ x: 10, y: 20, width: 1300, height: 900, maximized: true });
    expect(parseWindowState({ width: 1300, height: 900 })).toEqual({ width: 1300, height: 900, maximized: false });
  });

  it.each([
    ['null', null],
    ['an array', [1, 2]],
    ['a string', 'hello'],
    ['missing width', { height: 800 }],
    ['negative width', { width: -5, height: 800 }],
    ['fractional height', { width: 1000, height: 800.5 }],
    ['huge width', { width: 1e9, height: 800 }],
    ['string width', { width: '1280', height: 800 }],
    ['x without y', { x: 5, width: 1280, height: 800 }],
    ['NaN-like y', { x: 5, y: null, width: 1280, height: 800 }],
    ['non-boolean maximized', { width: 1280, height: 800, maximized: 'yes' }],
  ])('rejects %s', (_name, raw) => {
    expect(parseWindowState(raw)).toBeUndefined();
  });
});

describe('loadWindowState', () => {
  it('gives the defaults (1280x800, centred, not maximized) when there is no file', () => {
    expect(loadWindowState(file, { workAreas: [SCREEN] })).toEqual(DEFAULT_WINDOW_STATE);
    expect(DEFAULT_WINDOW_STATE).toEqual({ width: 1280, height: 800, maximized: false });
  });

  it('falls back to the defaults for a corrupted file, and says so', () => {
    writeFileSync(file, '{"x": 10, "y": 2'); // truncated JSON
    const log = vi.fn();
    expect(loadWindowState(file, { workAreas: [SCREEN], log })).toEqual(DEFAULT_WINDOW_STATE);
    expect(log).toHaveBeenCalledOnce();
  });

  it('falls back to the defaults for valid JSON of the wrong shape', () => {
    writeFileSync(file, JSON.stringify({ bounds: 'everywhere', width: 'wide' }));
    expect(loadWindowState(file, { workAreas: [SCREEN] })).toEqual(DEFAULT_WINDOW_STATE);
  });

  it('restores what was saved', () => {
    saveWindowState(file, { x: 100, y: 50, width: 1400, height: 900, maximized: true });
    expect(loadWindowState(file, { workAreas: [SCREEN] })).toEqual({ x: 100, y: 50, width: 1400, height: 900, maximized: true });
  });

  it('moves a window whose display is gone back onto the primary display', () => {
    // Saved on a second monitor to the right that is no longer connected.
    saveWindowState(file, { x: 2500, y: 200, width: 1280, height: 800, maximized: false });
    const state = loadWindowState(file, { workAreas: [SCREEN] });
    expect(state).toEqual({ x: 320, y: 120, width: 1280, height: 800, maximized: false });
  });

  it('keeps a window on a secondary display that is still there', () => {
    saveWindowState(file, { x: 2500, y: 200, width: 1280, height: 800, maximized: false });
    expect(loadWindowState(file, { workAreas: [SCREEN, RIGHT_SCREEN] })).toMatchObject({ x: 2500, y: 200 });
  });
});

describe('fitToDisplays', () => {
  it('pulls a window that hangs off the edge fully inside the work area', () => {
    expect(fitToDisplays({ x: 1500, y: -40, width: 1280, height: 800, maximized: false }, [SCREEN])).toEqual({
      x: 640,
      y: 0,
      width: 1280,
      height: 800,
      maximized: false,
    });
  });

  it('treats a sliver of overlap as off-screen', () => {
    const state = fitToDisplays({ x: 1915, y: 100, width: 1280, height: 800, maximized: false }, [SCREEN]);
    expect(state).toEqual({ x: 320, y: 120, width: 1280, height: 800, maximized: false });
  });

  it('shrinks a window larger than the display it lands on', () => {
    const small = { x: 0, y: 0, width: 1366, height: 728 };
    expect(fitToDisplays({ x: 0, y: 0, width: 2000, height: 1200, maximized: false }, [small])).toEqual({
      x: 0,
      y: 0,
      width: 1366,
      height: 728,
      maximized: false,
    });
  });

  it('handles displays at negative coordinates (a monitor to the left)', () => {
    const left = { x: -1920, y: 0, width: 1920, height: 1080 };
    expect(fitToDisplays({ x: -1500, y: 100, width: 1280, height: 800, maximized: false }, [SCREEN, left])).toEqual({
      x: -1500,
      y: 100,
      width: 1280,
      height: 800,
      maximized: false,
    });
  });

  it('leaves a first start centred (no position) and fits its size', () => {
    expect(fitToDisplays({ width: 1280, height: 800, maximized: false }, [{ x: 0, y: 0, width: 1024, height: 700 }])).toEqual({
      width: 1024,
      height: 700,
      maximized: false,
    });
  });
});

describe('trackWindowState', () => {
  it('saves debounced on move/resize, with the normal bounds and the maximized flag', async () => {
    const clock = new ManualClock();
    const win = new FakeBrowserWindow({ x: 10, y: 10, width: 1280, height: 800 });
    trackWindowState(win, file, { debounceMs: 300, clock });

    win.userSetBounds({ x: 50, y: 60, width: 1280, height: 800 });
    win.userSetBounds({ x: 50, y: 60, width: 1300, height: 820 });
    await clock.advance(299);
    expect(() => readFileSync(file)).toThrow(); // nothing written yet
    await clock.advance(1);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ x: 50, y: 60, width: 1300, height: 820, maximized: false });

    win.maximize();
    await clock.advance(300);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ x: 50, y: 60, width: 1300, height: 820, maximized: true });
  });

  it('saves at once on close, without waiting for the debounce', async () => {
    const clock = new ManualClock();
    const win = new FakeBrowserWindow({ x: 10, y: 10, width: 1280, height: 800 });
    trackWindowState(win, file, { debounceMs: 10_000, clock });
    win.userSetBounds({ x: 70, y: 80, width: 1111, height: 777 });
    win.close();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ x: 70, y: 80, width: 1111, height: 777, maximized: false });
    expect(clock.pending).toBe(0); // the pending timer was cleared: no write after destroy
    await clock.advance(10_000);
  });

  it('creates the data directory when it does not exist yet', () => {
    const nested = windowStatePath(join(dir, 'not', 'yet'));
    saveWindowState(nested, { x: 1, y: 2, width: 1100, height: 750, maximized: false });
    expect(loadWindowState(nested, { workAreas: [SCREEN] })).toEqual({ x: 1, y: 2, width: 1100, height: 750, maximized: false });
  });
});
