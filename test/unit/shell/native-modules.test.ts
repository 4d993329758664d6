import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findAppRoot, betterSqliteNativeBinding, electronNativeDir, unpackedPath } from '../../../main/native-modules';

const BASE = join(sep, 'app', 'native', 'electron');
const SQLITE = join(BASE, 'better_sqlite3.node');
const exists =
  (...present: string[]) =>
  (path: string) =>
    present.includes(path);

describe('betterSqliteNativeBinding', () => {
  it('is undefined in plain Node (tests, CLI): better-sqlite3 loads its own build', () => {
    expect(betterSqliteNativeBinding({ electron: undefined }, exists(SQLITE), BASE)).toBeUndefined();
    expect(betterSqliteNativeBinding({}, exists(SQLITE), BASE)).toBeUndefined();
  });

  it('points at the Electron build in Electron when it exists', () => {
    expect(betterSqliteNativeBinding({ electron: '45.4.1' }, exists(SQLITE), BASE)).toBe(SQLITE);
  });

  it('is undefined in Electron when no Electron build was made', () => {
    expect(betterSqliteNativeBinding({ electron: '45.4.1' }, exists(), BASE)).toBeUndefined();
  });

  it('in this test process (Node) is undefined with the real defaults', () => {
    expect(betterSqliteNativeBinding()).toBeUndefined();
  });
});

describe('paths', () => {
  it('finds the app root (the folder with package.json) from out/main or a shared chunk', () => {
    const pkg = join(sep, 'app', 'package.json');
    expect(findAppRoot(join(sep, 'app', 'out', 'main'), exists(pkg))).toBe(join(sep, 'app'));
    expect(findAppRoot(join(sep, 'app', 'out', 'main', 'chunks'), exists(pkg))).toBe(join(sep, 'app'));
    expect(findAppRoot(join(sep, 'app', 'out', 'main'), exists())).toBeUndefined();
  });

  it('by default looks in <app root>/native/electron', () => {
    const pkg = join(process.cwd(), 'package.json');
    const built = join(process.cwd(), 'native', 'electron', 'better_sqlite3.node');
    expect(betterSqliteNativeBinding({ electron: '45.4.1' }, exists(pkg, built))).toBe(built);
  });

  it('reads native files from app.asar.unpacked in a packaged app', () => {
    const root = join(sep, 'opt', 'Callout', 'resources', 'app.asar');
    expect(electronNativeDir(root)).toBe(join(sep, 'opt', 'Callout', 'resources', 'app.asar.unpacked', 'native', 'electron'));
    expect(unpackedPath(join(sep, 'app', 'native'))).toBe(join(sep, 'app', 'native'));
  });
});
