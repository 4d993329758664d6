// What `npm install` and `npm start` do about Electron's binary, on a checkout of their own (a temp
// folder whose node_modules/electron is a copy of the real package, with electron's @electron/get and
// unzipper): the binary is fetched from ELECTRON_MIRROR when it can be (an HTTP server on 127.0.0.1
// serving a small zip), unpacked by electron's own install.js; when it cannot be (refused, 404), the
// install says so in one line and still succeeds; a local binary (ELECTRON_OVERRIDE_DIST_PATH) is used
// as it is; `npm start` chooses the desktop app or the browser console, and says why.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { failureReason, fetchElectronBinary, findElectronBinary } from '../../../scripts/electron-binary.mjs';
import { postinstall } from '../../../scripts/postinstall.mjs';
import { chooseStart, displayProblem, electronViteBin } from '../../../scripts/start.mjs';

const ROOT = resolve(__dirname, '../../..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'node_modules/electron/package.json'), 'utf8')) as { version: string }).version;
const ZIP_NAME = `electron-v${VERSION}-${process.platform}-${process.arch}.zip`;

/** A zip of stored (uncompressed) files, enough for electron's unzipper. */
function zip(files: Record<string, { data: string; mode: number }>): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, { data, mode }] of Object.entries(files)) {
    const body = Buffer.from(data);
    const nameBytes = Buffer.from(name);
    const crc = crc32(body);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x21, 12); // 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(body.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    locals.push(local, nameBytes, body);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE((3 << 8) | 20, 4); // made on Unix: the mode is in the external attributes
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(0x21, 14);
    entry.writeUInt32LE(crc, 16);
    entry.writeUInt32LE(body.length, 20);
    entry.writeUInt32LE(body.length, 24);
    entry.writeUInt16LE(nameBytes.length, 28);
    entry.writeUInt32LE((mode << 16) >>> 0, 38);
    entry.writeUInt32LE(offset, 42);
    central.push(entry, nameBytes);
    offset += 30 + nameBytes.length + body.length;
  }
  const dir = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

const ARTIFACT = zip({ electron: { data: '#!/bin/sh\necho fake electron\n', mode: 0o100755 }, version: { data: VERSION, mode: 0o100644 } });

let mirror: http.Server;
let mirrorUrl: string;
let closedPort: number;
let requests: string[] = [];
let answer: 'zip' | 404 = 'zip';
let checkout: string;
const savedEnv = { ...process.env };

beforeAll(async () => {
  mirror = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    if (answer === 404 || req.url !== `/v${VERSION}/${ZIP_NAME}`) return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': 'application/zip', 'Content-Length': ARTIFACT.length }).end(ARTIFACT);
  });
  await new Promise<void>((r) => mirror.listen(0, '127.0.0.1', r));
  mirrorUrl = `http://127.0.0.1:${(mirror.address() as AddressInfo).port}/`;
  // A port nobody listens on: a server's, closed again.
  const gone = http.createServer();
  await new Promise<void>((r) => gone.listen(0, '127.0.0.1', r));
  closedPort = (gone.address() as AddressInfo).port;
  await new Promise((r) => gone.close(r));
});

afterAll(async () => {
  await new Promise((r) => mirror.close(r));
});

beforeEach(() => {
  requests = [];
  answer = 'zip';
  // A checkout of its own: electron's package copied (so nothing is unpacked into the shared node_modules).
  checkout = mkdtempSync(join(tmpdir(), 'callout-install-'));
  writeFileSync(join(checkout, 'package.json'), '{"name":"callout-install-test","private":true}');
  const electron = join(checkout, 'node_modules', 'electron');
  mkdirSync(electron, { recursive: true });
  for (const f of ['package.json', 'install.js', 'index.js']) cpSync(join(ROOT, 'node_modules/electron', f), join(electron, f));
  writeFileSync(join(electron, 'checksums.json'), JSON.stringify({ [ZIP_NAME]: createHash('sha256').update(ARTIFACT).digest('hex') }));
  mkdirSync(join(checkout, 'node_modules', '@electron'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules/@electron/get'), join(checkout, 'node_modules/@electron/get'));
  symlinkSync(join(ROOT, 'node_modules/@electron-internal'), join(checkout, 'node_modules/@electron-internal'));
  // @electron/get reads ELECTRON_MIRROR from the process environment itself.
  for (const k of Object.keys(process.env)) if (/^electron_|^npm_config_electron|^ELECTRON_/i.test(k)) delete process.env[k];
  process.env.electron_config_cache = join(checkout, 'cache');
});

afterEach(() => {
  for (const k of Object.keys(process.env)) if (!(k in savedEnv)) delete process.env[k];
  Object.assign(process.env, savedEnv);
  rmSync(checkout, { recursive: true, force: true });
});

/** A terminal-like stream that keeps what is written to it. */
function terminal() {
  let text = '';
  return { isTTY: true, write: (s: string) => void (text += s), text: () => text };
}

describe('npm install (scripts/postinstall.mjs)', () => {
  it('fetches the binary from ELECTRON_MIRROR with a progress line, unpacked by electron’s own install.js', async () => {
    process.env.ELECTRON_MIRROR = mirrorUrl;
    const lines: string[] = [];
    const progress = terminal();
    await postinstall({ root: checkout, env: process.env, say: (l) => void lines.push(l), progress });
    expect(requests).toEqual([`/v${VERSION}/${ZIP_NAME}`]);
    expect(progress.text()).toContain(`Downloading Electron ${VERSION} (${process.platform}-${process.arch}): 100%`);
    const binary = findElectronBinary({ root: checkout, env: process.env });
    expect(binary).toBe(join(checkout, 'node_modules/electron/dist/electron'));
    expect(readFileSync(join(checkout, 'node_modules/electron/path.txt'), 'utf8')).toBe('electron');
    expect(lines).toEqual([`Electron ${VERSION} is ready for \`npm start\` (downloaded).`]);
    // A second install finds it and downloads nothing.
    await postinstall({ root: checkout, env: process.env, say: (l) => void lines.push(l), progress: null });
    expect(requests).toHaveLength(1);
    expect(lines.at(-1)).toBe(`Electron ${VERSION} is ready for \`npm start\`.`);
  });

  it.each([
    ['a mirror without the file', () => ((answer = 404), mirrorUrl), /HTTP 404 from 127\.0\.0\.1:\d+/],
    ['a refused connection', () => `http://127.0.0.1:${closedPort}/`, /ECONNREFUSED 127\.0\.0\.1/],
  ])('with %s: one line that says how to point Electron elsewhere, and the install goes on', async (_what, at, reason) => {
    process.env.ELECTRON_MIRROR = at();
    const lines: string[] = [];
    const started = Date.now();
    await expect(postinstall({ root: checkout, env: process.env, say: (l) => void lines.push(l), progress: null })).resolves.toBeUndefined();
    // Real time: the install talks to a real server on 127.0.0.1 through electron's own downloader (on
    // the system clock, not ours); the bound only guards against an install that hangs on an unreachable host.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain('\n');
    expect(lines[0]).toMatch(reason);
    expect(lines[0]).toContain(`Electron ${VERSION} could not be downloaded`);
    expect(lines[0]).toContain('`npm start` opens the console in your browser');
    expect(lines[0]).toContain('ELECTRON_MIRROR');
    expect(lines[0]).toContain(`ELECTRON_OVERRIDE_DIST_PATH to a folder holding Electron ${VERSION}`);
    expect(findElectronBinary({ root: checkout, env: process.env })).toBeNull();
  });

  it('uses a local binary from ELECTRON_OVERRIDE_DIST_PATH without downloading anything', async () => {
    const local = join(checkout, 'electron-local');
    mkdirSync(local);
    writeFileSync(join(local, 'electron'), '#!/bin/sh\n', { mode: 0o755 });
    process.env.ELECTRON_OVERRIDE_DIST_PATH = local;
    process.env.ELECTRON_MIRROR = mirrorUrl;
    const lines: string[] = [];
    await postinstall({ root: checkout, env: process.env, say: (l) => void lines.push(l), progress: null });
    expect(requests).toEqual([]);
    expect(lines).toEqual([`Electron ${VERSION} is ready for \`npm start\`.`]);
    expect(await fetchElectronBinary({ root: checkout, env: process.env, progress: null })).toEqual({
      ok: true,
      path: join(local, 'electron'),
      fetched: false,
    });
    process.env.ELECTRON_OVERRIDE_DIST_PATH = join(checkout, 'nowhere');
    expect(await fetchElectronBinary({ root: checkout, env: process.env, progress: null })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('no Electron executable in ELECTRON_OVERRIDE_DIST_PATH'),
    });
  });

  it('honours ELECTRON_SKIP_BINARY_DOWNLOAD when someone sets it (nothing needs it), in one line', async () => {
    process.env.ELECTRON_SKIP_BINARY_DOWNLOAD = '1';
    process.env.ELECTRON_MIRROR = mirrorUrl;
    const lines: string[] = [];
    await postinstall({ root: checkout, env: process.env, say: (l) => void lines.push(l), progress: null });
    expect(requests).toEqual([]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('ELECTRON_SKIP_BINARY_DOWNLOAD is set');
  });

  it('says what went wrong in a few words', () => {
    expect(failureReason(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ENOTFOUND', hostname: 'github.com' } }))).toBe('ENOTFOUND github.com');
    expect(failureReason(new Error(`first line\n${'x'.repeat(300)}`))).toBe('first line');
  });
});

describe('npm start (scripts/start.mjs)', () => {
  const ok = async () => ({ ok: true as const, path: '/opt/electron/electron', fetched: false });
  const display = { DISPLAY: ':0' };

  it('opens the desktop app where there is a display and the binary', async () => {
    expect(await chooseStart({ env: display, platform: 'linux', fetch: ok })).toEqual({ desktop: '/opt/electron/electron' });
    expect(await chooseStart({ env: {}, platform: 'darwin', fetch: ok })).toEqual({ desktop: '/opt/electron/electron' });
  });

  it('without a display, goes to the browser without downloading anything', async () => {
    let fetched = 0;
    const choice = await chooseStart({ env: { SSH_CONNECTION: 'x' }, platform: 'linux', fetch: async () => (fetched++, ok()) });
    expect(choice).toEqual({ browser: 'there is no display here (neither DISPLAY nor WAYLAND_DISPLAY is set)' });
    expect(fetched).toBe(0);
    expect(displayProblem({ WAYLAND_DISPLAY: 'wayland-0' }, 'linux')).toBeNull();
    expect(displayProblem({}, 'win32')).toBeNull();
  });

  it('finds electron-vite’s command, which it runs to build (and to open the desktop app)', () => {
    expect(existsSync(electronViteBin())).toBe(true);
  });

  it('goes to the browser, saying why, when the binary cannot be fetched', async () => {
    const refused = await chooseStart({
      env: display,
      platform: 'linux',
      fetch: async () => ({ ok: false, reason: 'ENOTFOUND github.com' }),
    });
    expect(refused.browser).toBe(
      "Electron's binary is not here and could not be downloaded (ENOTFOUND github.com); set ELECTRON_MIRROR or ELECTRON_OVERRIDE_DIST_PATH for the desktop app",
    );
  });
});

describe('the install needs no ELECTRON_SKIP_BINARY_DOWNLOAD', () => {
  it('package.json keeps electron’s own download script from running, and every other install script a package has but does not need', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      allowScripts: Record<string, boolean>;
      scripts: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(pkg.allowScripts).toMatchObject({ electron: false, 'better-sqlite3': false, esbuild: true });
    expect(pkg.scripts.postinstall).toBe('node scripts/postinstall.mjs');
    expect(pkg.scripts.start).toBe('node scripts/start.mjs');
    expect(pkg.devDependencies.electron).toMatch(/^\^45\./);
  });

  it('neither the README nor CI sets it', () => {
    for (const file of ['README.md', '.ci/run', 'package.json'])
      expect(readFileSync(join(ROOT, file), 'utf8'), file).not.toMatch(/ELECTRON_SKIP_BINARY_DOWNLOAD=/);
  });
});
