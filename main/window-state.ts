// Remembers the main window's bounds and maximized flag in a small JSON file in the data
// directory. Plain Node (no electron import): the window and the displays come in as
// parameters, so this file is tested without Electron.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { systemClock, type Clock, type TimerHandle } from './clock';

export const WINDOW_STATE_FILE = 'window-state.json';

export const DEFAULT_WINDOW_SIZE = { width: 1280, height: 800 } as const;
export const MIN_WINDOW_SIZE = { width: 1024, height: 700 } as const;

/** Upper bound for a stored size; anything larger is treated as a corrupted file. */
const MAX_DIMENSION = 100_000;
/** How much of a window must overlap a display's work area to count as "on" that display. */
const MIN_VISIBLE = { width: 160, height: 80 } as const;

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowState {
  /** Position is absent for a first start: the window is then centred by Electron. */
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

export const DEFAULT_WINDOW_STATE: Readonly<WindowState> = Object.freeze({
  width: DEFAULT_WINDOW_SIZE.width,
  height: DEFAULT_WINDOW_SIZE.height,
  maximized: false,
});

export function windowStatePath(dataDir: string): string {
  return join(dataDir, WINDOW_STATE_FILE);
}

function isCoordinate(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && Math.abs(value) <= MAX_DIMENSION;
}

function isDimension(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= MAX_DIMENSION;
}

/** Validates parsed JSON; returns undefined for anything that is not a well-formed state. */
export function parseWindowState(raw: unknown): WindowState | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const record = raw as Record<string, unknown>;
  const { x, y, width, height, maximized } = record;
  if (!isDimension(width) || !isDimension(height)) return undefined;
  if (maximized !== undefined && typeof maximized !== 'boolean') return undefined;
  const state: WindowState = { width, height, maximized: maximized ?? false };
  // A position is only meaningful as a pair.
  if (x !== undefined || y !== undefined) {
    if (!isCoordinate(x) || !isCoordinate(y)) return undefined;
    state.x = x;
    state.y = y;
  }
  return state;
}

function overlapArea(a: Rect, b: Rect): number {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return width > 0 && height > 0 ? width * height : 0;
}

function isVisibleOn(bounds: Rect, area: Rect): boolean {
  const width = Math.min(bounds.x + bounds.width, area.x + area.width) - Math.max(bounds.x, area.x);
  const height = Math.min(bounds.y + bounds.height, area.y + area.height) - Math.max(bounds.y, area.y);
  return width >= Math.min(MIN_VISIBLE.width, bounds.width) && height >= Math.min(MIN_VISIBLE.height, bounds.height);
}

function clamp(value: number, low: number, high: number): number {
  return Math.max(low, Math.min(value, high));
}

/**
 * Keeps the window on a visible display: the display it overlaps most, or the primary
 * display when it is (nearly) off every screen, e.g. after a monitor was unplugged. The
 * size shrinks to fit the chosen work area and the window is moved fully inside it.
 * `workAreas` come from `screen.getAllDisplays()`; `primary` defaults to the first.
 */
export function fitToDisplays(state: WindowState, workAreas: readonly Rect[], primary: Rect | undefined = workAreas[0]): WindowState {
  if (!primary) return { ...state };
  const width = state.width;
  const height = state.height;

  if (state.x === undefined || state.y === undefined) {
    return { width: Math.min(width, primary.width), height: Math.min(height, primary.height), maximized: state.maximized };
  }

  const bounds: Rect = { x: state.x, y: state.y, width, height };
  let best: Rect | undefined;
  let bestArea = 0;
  for (const area of workAreas) {
    const overlap = overlapArea(bounds, area);
    if (overlap > bestArea && isVisibleOn(bounds, area)) {
      best = area;
      bestArea = overlap;
    }
  }

  if (!best) {
    // Off-screen: centre on the primary display.
    const w = Math.min(width, primary.width);
    const h = Math.min(height, primary.height);
    return {
      x: primary.x + Math.round((primary.width - w) / 2),
      y: primary.y + Math.round((primary.height - h) / 2),
      width: w,
      height: h,
      maximized: state.maximized,
    };
  }

  const w = Math.min(width, best.width);
  const h = Math.min(height, best.height);
  return {
    x: clamp(bounds.x, best.x, best.x + best.width - w),
    y: clamp(bounds.y, best.y, best.y + best.height - h),
    width: w,
    height: h,
    maximized: state.maximized,
  };
}

export interface LoadWindowStateOptions {
  workAreas: readonly Rect[];
  primary?: Rect;
  log?: (message: string) => void;
}

/**
 * Reads the state file. A missing, unreadable or malformed file gives the defaults (a
 * malformed one is logged); a valid one is then kept on a visible display.
 */
export function loadWindowState(file: string, options: LoadWindowStateOptions): WindowState {
  let state: WindowState = { ...DEFAULT_WINDOW_STATE };
  try {
    const parsed = parseWindowState(JSON.parse(readFileSync(file, 'utf8')) as unknown);
    if (parsed) state = parsed;
    else options.log?.(`window state in ${file} is not valid; using defaults`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      options.log?.(`window state in ${file} could not be read (${(error as Error).message}); using defaults`);
    }
  }
  return fitToDisplays(state, options.workAreas, options.primary ?? options.workAreas[0]);
}

/** Writes the state atomically (temporary file, then rename), creating the directory. */
export function saveWindowState(file: string, state: WindowState): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(state, null, 2)}\n`, 'utf8');
  renameSync(tmp, file);
}

/** The part of a BrowserWindow that the tracker needs (a real BrowserWindow fits). */
export interface TrackableWindow {
  on(event: 'resize' | 'move' | 'maximize' | 'unmaximize' | 'close', listener: () => void): unknown;
  getNormalBounds(): Rect;
  isMaximized(): boolean;
  isDestroyed(): boolean;
}

export interface TrackWindowStateOptions {
  debounceMs?: number;
  /** The debounce's timer. Default systemClock. */
  clock?: Clock;
  log?: (message: string) => void;
}

export interface WindowStateTracker {
  /** Writes the current state now (also done on 'close'). */
  flush(): void;
}

/**
 * Saves the window's state debounced on resize/move/maximize/unmaximize and at once on
 * close. The normal (restored) bounds are saved, so a maximized window comes back
 * maximized over the size it had before.
 */
export function trackWindowState(win: TrackableWindow, file: string, options: TrackWindowStateOptions = {}): WindowStateTracker {
  const debounceMs = options.debounceMs ?? 500;
  const clock = options.clock ?? systemClock;
  let timer: TimerHandle | undefined;

  const flush = (): void => {
    if (timer !== undefined) {
      timer.cancel();
      timer = undefined;
    }
    if (win.isDestroyed()) return;
    const { x, y, width, height } = win.getNormalBounds();
    try {
      saveWindowState(file, { x, y, width, height, maximized: win.isMaximized() });
    } catch (error) {
      options.log?.(`window state could not be saved to ${file}: ${(error as Error).message}`);
    }
  };

  const schedule = (): void => {
    timer?.cancel();
    timer = clock.setTimeout(flush, debounceMs);
  };

  win.on('resize', schedule);
  win.on('move', schedule);
  win.on('maximize', schedule);
  win.on('unmaximize', schedule);
  win.on('close', flush);
  return { flush };
}
