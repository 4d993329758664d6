import { homedir } from 'node:os';
import { join } from 'node:path';

export const APP_FOLDER = 'Callout';
export const DATABASE_FILE = 'callout.db';

/**
 * Where Callout keeps its data: CALLOUT_HOME when set (tests, CLI, portable use),
 * otherwise the OS app-data folder. Electron's userData is pointed here too, so the
 * app and the CLI share one store.
 */
export function dataDirectory(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home: string = homedir()): string {
  const override = env.CALLOUT_HOME?.trim();
  if (override) return override;
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), APP_FOLDER);
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', APP_FOLDER);
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), APP_FOLDER);
}

export function databasePath(dir: string = dataDirectory()): string {
  return join(dir, DATABASE_FILE);
}
