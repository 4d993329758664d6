// electron-builder.yml, checked by electron-builder's own loader and JSON schema (no
// packaging: that needs the Electron binary), and the generated app icon.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { inflateSync } from 'node:zlib';
import { beforeEach, describe, expect, it } from 'vitest';

const ROOT = resolve('.');
const requireHere = createRequire(import.meta.url);

interface BuilderConfig {
  appId?: string;
  productName?: string;
  directories?: { output?: string; buildResources?: string };
  files?: unknown;
  asarUnpack?: string[];
  npmRebuild?: boolean;
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

  it('packs the build and package.json; native binaries are unpacked from the asar and never rebuilt', () => {
    expect(JSON.stringify(config.files)).toContain('out/**');
    expect(JSON.stringify(config.files)).toContain('package.json');
    expect(JSON.stringify(config.files)).not.toContain('native/');
    expect(config.asarUnpack).toEqual(['**/*.node']);
    // The Node-API binaries the packages ship load in Electron as they are; a rebuild would compile
    // better-sqlite3 from source (it still carries its binding.gyp).
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
