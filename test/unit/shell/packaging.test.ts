// electron-builder.yml, checked by electron-builder's own loader and JSON schema (no
// packaging: that needs the Electron binary), the beforePack hook that guards the native
// builds, and the generated app icon.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { inflateSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { archName, beforePack, checkNativeBuilds } from '../../../scripts/electron-builder-before-pack.mjs';

const ROOT = resolve('.');
const requireHere = createRequire(import.meta.url);

interface BuilderConfig {
  appId?: string;
  productName?: string;
  directories?: { output?: string; buildResources?: string };
  files?: unknown;
  asarUnpack?: string[];
  npmRebuild?: boolean;
  beforePack?: string;
  electronFuses?: Record<string, boolean>;
  linux?: { target?: unknown; category?: string; maintainer?: string; icon?: string };
  win?: { target?: unknown; icon?: string };
  mac?: { target?: unknown; icon?: string };
}

// electron-builder's internals (app-builder-lib and builder-util come with electron-builder).
const builderConfig = requireHere('app-builder-lib/out/util/config/config') as {
  getConfig(projectDir: string, configPath: string | null, configFromOptions: null): Promise<BuilderConfig>;
  validateConfiguration(config: BuilderConfig, logger: unknown): Promise<void>;
};
const { DebugLogger } = requireHere('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };
const { resolveFunction } = requireHere('app-builder-lib/out/util/resolve') as {
  resolveFunction(type: unknown, executor: string, name: string, root: string): Promise<unknown>;
};

function targets(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map((entry) => (typeof entry === 'string' ? entry : (entry as { target: string }).target));
}

describe('electron-builder.yml', () => {
  let config: BuilderConfig;

  beforeEach(async () => {
    config = await builderConfig.getConfig(ROOT, null, null);
  });

  it('passes electron-builder’s own schema validation', async () => {
    await expect(builderConfig.validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('a misspelt key would be caught by that validation', async () => {
    const broken = { ...config, linux: { ...config.linux, categroy: 'Utility' } };
    await expect(builderConfig.validateConfiguration(broken, new DebugLogger(false))).rejects.toThrow(/configuration/i);
  });

  it('names the app and its output', () => {
    expect(config.appId).toBe('com.callout.desktop');
    expect(config.productName).toBe('Callout');
    expect(config.directories?.output).toBe('dist');
  });

  it('packs only the build, package.json and the Electron native builds, unpacked from the asar', () => {
    expect(JSON.stringify(config.files)).toContain('out/**');
    expect(JSON.stringify(config.files)).toContain('package.json');
    expect(JSON.stringify(config.files)).toContain('native/**');
    expect(config.asarUnpack).toEqual(expect.arrayContaining(['**/*.node', 'native/**']));
    expect(config.npmRebuild).toBe(false);
  });

  it('targets AppImage + deb, NSIS and DMG with the generated icon', () => {
    expect(targets(config.linux?.target)).toEqual(['AppImage', 'deb']);
    expect(config.linux?.category).toBe('Utility');
    expect(config.linux?.maintainer).toMatch(/<[^>]+@[^>]+>/);
    expect(targets(config.win?.target)).toEqual(['nsis']);
    expect(targets(config.mac?.target)).toEqual(['dmg']);
    for (const icon of [config.linux?.icon, config.win?.icon, config.mac?.icon]) expect(icon).toBe('assets/icon.png');
  });

  it('flips the hardening fuses', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      onlyLoadAppFromAsar: true,
    });
  });

  it('its beforePack hook resolves the way electron-builder loads it', async () => {
    expect(config.beforePack).toBe('./scripts/electron-builder-before-pack.mjs');
    const hook = await resolveFunction(undefined, config.beforePack ?? '', 'beforePack', ROOT);
    expect(typeof hook).toBe('function');
  });
});

describe('beforePack hook (native builds for Electron)', () => {
  let project: string;
  const electronVersion = '45.4.1';

  beforeEach(() => {
    project = mkdtempSync(join(tmpdir(), 'callout-before-pack-'));
  });

  afterEach(() => {
    rmSync(project, { recursive: true, force: true });
  });

  function writeBuilds(manifest: Partial<{ electron: string; platform: string; arch: string }> = {}): void {
    const dir = join(project, 'native', 'electron');
    mkdirSync(dir, { recursive: true });
    const modules: Record<string, { version: string; binary: string; sha256: string }> = {};
    for (const [name, binary] of [['better-sqlite3', 'better_sqlite3.node']] as const) {
      const content = Buffer.from(`fake ${binary}`);
      writeFileSync(join(dir, binary), content);
      modules[name] = { version: '1.0.0', binary, sha256: createHash('sha256').update(content).digest('hex') };
    }
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ electron: electronVersion, platform: 'linux', arch: 'x64', modules, ...manifest }));
  }

  it('maps electron-builder’s Arch enum', () => {
    expect([0, 1, 2, 3, 4].map(archName)).toEqual(['ia32', 'x64', 'armv7l', 'arm64', 'universal']);
  });

  it('passes when the builds match the package being made', async () => {
    writeBuilds();
    expect(checkNativeBuilds({ projectDir: project, platform: 'linux', arch: 'x64', electronVersion })).toEqual([]);
    await expect(
      beforePack({ packager: { projectDir: project, info: { framework: { version: electronVersion } } }, electronPlatformName: 'linux', arch: 1 }),
    ).resolves.toBeUndefined();
  });

  it('stops packaging when the builds were never made, and says how to make them', async () => {
    await expect(beforePack({ packager: { projectDir: project }, electronPlatformName: 'linux', arch: 1 })).rejects.toThrow(/rebuild-electron-native\.mjs/);
  });

  it('reports a wrong Electron version, platform, arch or a tampered binary', () => {
    writeBuilds({ electron: '38.0.0', platform: 'darwin', arch: 'arm64' });
    writeFileSync(join(project, 'native', 'electron', 'better_sqlite3.node'), 'changed');
    const problems = checkNativeBuilds({ projectDir: project, platform: 'linux', arch: 'x64', electronVersion }).join('\n');
    expect(problems).toMatch(/Electron 38\.0\.0/);
    expect(problems).toMatch(/built on darwin/);
    expect(problems).toMatch(/built for arm64/);
    expect(problems).toMatch(/better_sqlite3\.node does not match/);
  });
});

describe('assets/icon.png', () => {
  it('is the 512x512 RGBA PNG that scripts/generate-icon.mjs draws', () => {
    expect(() => execFileSync(process.execPath, ['scripts/generate-icon.mjs', '--check'], { cwd: ROOT, stdio: 'pipe' })).not.toThrow();
  });

  it('is a well-formed PNG: blue background, white glyph, transparent corners', () => {
    const png = readFileSync(join(ROOT, 'assets', 'icon.png'));
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    let offset = 8;
    let width = 0;
    let height = 0;
    const idat: Buffer[] = [];
    while (offset < png.length) {
      const length = png.readUInt32BE(offset);
      const type = png.toString('ascii', offset + 4, offset + 8);
      const data = png.subarray(offset + 8, offset + 8 + length);
      if (type === 'IHDR') {
        width = data.readUInt32BE(0);
        height = data.readUInt32BE(4);
        expect([data[8], data[9]]).toEqual([8, 6]); // 8-bit RGBA
      }
      if (type === 'IDAT') idat.push(data);
      offset += 12 + length;
    }
    expect([width, height]).toEqual([512, 512]);
    const raw = inflateSync(Buffer.concat(idat));
    expect(raw.length).toBe((512 * 4 + 1) * 512);
    const pixel = (x: number, y: number) => {
      const at = y * (512 * 4 + 1) + 1 + x * 4;
      return [...raw.subarray(at, at + 4)];
    };
    expect(pixel(0, 0)[3]).toBe(0); // transparent corner
    expect(pixel(256, 480)).toEqual([0x16, 0x77, 0xff, 0xff]); // #1677ff near the bottom
    expect(pixel(122, 256)).toEqual([0xff, 0xff, 0xff, 0xff]); // the C's left stroke
  });
});
