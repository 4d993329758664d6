// `npm install` compiles nothing: no package runs node-gyp (or another native build) during install,
// so no C++ toolchain and no libsecret are needed. Checked on the lockfile npm ci installs from and
// on the installed packages: every package with an install script is reviewed in package.json's
// "allowScripts", the ones allowed to run build nothing, and a package that carries a binding.gyp
// (which npm would build by default) is kept from building.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../../..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { allowScripts: Record<string, boolean>; engines: { node: string } };
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { hasInstallScript?: boolean; optional?: boolean }>;
};

const BUILDS = /node-gyp|prebuild-install|cmake-js|node-pre-gyp|\bmake\b|\bg\+\+|\bcc\b/;

function nameOf(path: string): string {
  return path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
}

function manifest(path: string): { scripts?: Record<string, string>; gypfile?: boolean } | null {
  const file = join(ROOT, path, 'package.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { scripts?: Record<string, string>; gypfile?: boolean }) : null;
}

describe('npm install compiles nothing', () => {
  const withScripts = Object.entries(lock.packages).filter(([path, entry]) => path !== '' && entry.hasInstallScript);

  it('every package with an install script is reviewed in allowScripts', () => {
    expect(withScripts.length).toBeGreaterThan(0);
    expect(withScripts.map(([path]) => nameOf(path)).filter((name) => !(name in pkg.allowScripts))).toEqual([]);
  });

  it('the install scripts allowed to run build nothing', () => {
    for (const [path] of withScripts) {
      if (pkg.allowScripts[nameOf(path)] !== true) continue;
      const scripts = manifest(path)?.scripts ?? {};
      for (const phase of ['preinstall', 'install', 'postinstall'] as const) expect(scripts[phase] ?? '', `${path} ${phase}`).not.toMatch(BUILDS);
      expect(existsSync(join(ROOT, path, 'binding.gyp')), `${path} has a binding.gyp`).toBe(false);
    }
  });

  it('a package carrying a binding.gyp is kept from building it: better-sqlite3 loads its prebuilt binary', () => {
    const gyp = Object.keys(lock.packages).filter((path) => path !== '' && existsSync(join(ROOT, path, 'binding.gyp')));
    expect(gyp).toContain('node_modules/better-sqlite3');
    for (const path of gyp) {
      const allowed = pkg.allowScripts[nameOf(path)] === true;
      const scripts = manifest(path)?.scripts ?? {};
      // npm builds a binding.gyp by default unless the package says gypfile: false and has no install script of its own.
      const buildsByDefault = manifest(path)?.gypfile !== false || Boolean(scripts.install ?? scripts.preinstall);
      expect(allowed && buildsByDefault, path).toBe(false);
    }
    expect(existsSync(join(ROOT, 'node_modules/better-sqlite3/build'))).toBe(false);
  });

  it('keytar, which compiled against libsecret, is gone', () => {
    expect(Object.keys(lock.packages).filter((path) => nameOf(path) === 'keytar')).toEqual([]);
  });

  it('Node 24 is what the project asks for', () => {
    expect(pkg.engines.node).toMatch(/^>=24\./);
    expect(readFileSync(join(ROOT, '.nvmrc'), 'utf8').trim()).toBe('24');
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(24);
  });
});
