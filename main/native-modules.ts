// Native addons and the two runtimes.
//
// better-sqlite3 talks to V8 directly, so its .node file is bound to one runtime's ABI:
// node_modules keeps the build for Node 20 (vitest, the `callout` CLI), and
// `scripts/rebuild-electron-native.mjs` builds a second copy for Electron into
// `native/electron/` (git-ignored, packaged unpacked from the asar). In Electron the
// database is opened with `new Database(file, { nativeBinding: betterSqliteNativeBinding() })`;
// in Node the function returns undefined and better-sqlite3 loads its own build.
//
// The keychain library (@napi-rs/keyring) is a Node-API addon, ABI-stable across Node and
// Electron: its npm package's prebuilt binary loads in both, so it needs no switch here.
//
// Plain Node: no electron import. Every function takes (versions, fileExists, baseDir)
// so tests can drive it.
import { existsSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';

export const NATIVE_DIR = 'native';
export const ELECTRON_NATIVE_SUBDIR = 'electron';
export const BETTER_SQLITE_BINARY = 'better_sqlite3.node';

export interface RuntimeVersions {
  readonly electron?: string | undefined;
}

export type FileExists = (path: string) => boolean;

/**
 * Native files are unpacked from the asar (electron-builder `asarUnpack`): point at the
 * real file in `app.asar.unpacked` so the OS loader can open it.
 */
export function unpackedPath(path: string): string {
  const marker = `${sep}app.asar${sep}`;
  const index = path.indexOf(marker);
  if (index === -1) return path;
  return `${path.slice(0, index)}${sep}app.asar.unpacked${sep}${path.slice(index + marker.length)}`;
}

/** The folder holding the Electron builds: `<app root>/native/electron`. */
export function electronNativeDir(appRoot: string): string {
  return unpackedPath(join(appRoot, NATIVE_DIR, ELECTRON_NATIVE_SUBDIR));
}

/**
 * The app root: the nearest folder at or above `from` holding a package.json. The main
 * bundle is out/main/index.js, but code shared with the CLI may land in a chunk under
 * out/main/chunks, so counting levels up from __dirname is not reliable. In a packaged
 * app this finds `.../resources/app.asar` (Electron's fs reads inside the asar).
 */
export function findAppRoot(from: string, fileExists: FileExists = existsSync): string | undefined {
  let dir = from;
  for (let depth = 0; depth < 8; depth++) {
    if (fileExists(join(dir, 'package.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
  return undefined;
}

function defaultBaseDir(fileExists: FileExists): string | undefined {
  const here = typeof __dirname === 'string' ? __dirname : process.cwd();
  const root = findAppRoot(here, fileExists);
  return root === undefined ? undefined : electronNativeDir(root);
}

function electronBuild(binary: string, versions: RuntimeVersions, fileExists: FileExists, baseDir: string | undefined): string | undefined {
  if (!versions.electron) return undefined; // plain Node: the package's own build
  const dir = baseDir ?? defaultBaseDir(fileExists);
  if (dir === undefined) return undefined;
  const candidate = join(dir, binary);
  return fileExists(candidate) ? candidate : undefined;
}

/**
 * The `nativeBinding` option for better-sqlite3: the Electron build when running in
 * Electron and it exists, otherwise undefined (let better-sqlite3 find its own).
 * `baseDir` defaults to `<app root>/native/electron` (unpacked from the asar).
 */
export function betterSqliteNativeBinding(
  versions: RuntimeVersions = process.versions,
  fileExists: FileExists = existsSync,
  baseDir?: string,
): string | undefined {
  return electronBuild(BETTER_SQLITE_BINARY, versions, fileExists, baseDir);
}
