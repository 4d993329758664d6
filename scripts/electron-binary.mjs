#!/usr/bin/env node
// Electron's binary, which `npm install` no longer downloads by itself (package.json "allowScripts"
// keeps electron's own install script from running, so that an unreachable download host can never
// fail the install). Used by scripts/postinstall.mjs and scripts/start.mjs; `npm run electron:fetch`
// runs it by hand.
//
// Where the binary is: node_modules/electron/dist (path.txt names the executable, dist/version its
// version), or ELECTRON_OVERRIDE_DIST_PATH (a folder holding an Electron of the same version: "a local
// binary"). Fetching it: @electron/get (electron's own dependency) downloads the zip into its cache,
// with our progress line; it honours ELECTRON_MIRROR (and ELECTRON_CUSTOM_DIR, electron_config_cache,
// electron_use_remote_checksums). Then electron's own install.js unpacks it from that cache, exactly
// as an ordinary install would. Never throws: a failure is a reason, in one line.
//
// Usage: node scripts/electron-binary.mjs            fetch it (progress on a terminal); exit 1 if it cannot
//        node scripts/electron-binary.mjs --check    exit 0 when the binary is there, 1 when not
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** node_modules/electron, or null when the package is not installed. */
export function electronDir(root = ROOT) {
  try {
    return dirname(createRequire(join(root, 'package.json')).resolve('electron/package.json'));
  } catch {
    return null;
  }
}

export function electronVersion(root = ROOT) {
  const dir = electronDir(root);
  return dir ? JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version : null;
}

/** The executable inside an Electron folder, as electron's install.js names it. */
export function executableName(platform = process.platform) {
  switch (platform) {
    case 'mas':
    case 'darwin':
      return 'Electron.app/Contents/MacOS/Electron';
    case 'win32':
      return 'electron.exe';
    default:
      return 'electron';
  }
}

/** The Electron executable this checkout would start, or null when there is none. */
export function findElectronBinary({ root = ROOT, env = process.env, platform = process.platform } = {}) {
  const dir = electronDir(root);
  if (!dir) return null;
  const pathFile = join(dir, 'path.txt');
  const named = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : '';
  const override = env.ELECTRON_OVERRIDE_DIST_PATH?.trim();
  if (override) {
    const file = join(override, named || executableName(platform));
    return existsSync(file) ? file : null;
  }
  if (!named) return null;
  const versionFile = join(dir, 'dist', 'version');
  const version = existsSync(versionFile) ? readFileSync(versionFile, 'utf8').trim().replace(/^v/, '') : null;
  if (version !== electronVersion(root)) return null;
  const file = join(dir, 'dist', named);
  return existsSync(file) ? file : null;
}

/** Why a download failed, short: the network's code and the host, or the HTTP status. */
export function failureReason(error) {
  const cause = error?.cause;
  if (cause?.code) return [cause.code, cause.hostname ?? cause.address].filter(Boolean).join(' ');
  if (cause?.message) return cause.message;
  if (error?.response?.status) return `HTTP ${error.response.status} from ${new URL(error.response.url).host}`;
  const text = String(error?.message ?? error).split('\n')[0];
  return text.length > 160 ? `${text.slice(0, 157)}…` : text;
}

function progressPrinter(label, stream) {
  if (!stream.isTTY) return undefined;
  let last = 0;
  return ({ transferred, total, percent }) => {
    const now = Date.now();
    if (now - last < 200 && percent < 1) return;
    last = now;
    const mb = (n) => `${(n / 1048576).toFixed(1)} MB`;
    const amount = total ? `${Math.floor(percent * 100)}% of ${mb(total)}` : mb(transferred);
    stream.write(`\r${label}: ${amount}   `);
    if (percent >= 1) stream.write('\n');
  };
}

/**
 * Fetches the binary when it is missing. Resolves with {ok: true, path} or {ok: false, reason}.
 * `progress`: a stream (stderr) for a progress line while downloading, or null for none.
 */
export async function fetchElectronBinary({ root = ROOT, env = process.env, progress = process.stderr } = {}) {
  const found = findElectronBinary({ root, env });
  if (found) return { ok: true, path: found, fetched: false };
  if (env.ELECTRON_OVERRIDE_DIST_PATH?.trim())
    return { ok: false, reason: `no Electron executable in ELECTRON_OVERRIDE_DIST_PATH (${env.ELECTRON_OVERRIDE_DIST_PATH})` };
  const dir = electronDir(root);
  if (!dir) return { ok: false, reason: 'the electron package is not installed (run npm install)' };
  const version = electronVersion(root);
  const platform = env.ELECTRON_INSTALL_PLATFORM || env.npm_config_platform || process.platform;
  const arch = env.ELECTRON_INSTALL_ARCH || env.npm_config_arch || process.arch;
  try {
    const get = await import(pathToFileURL(createRequire(join(dir, 'package.json')).resolve('@electron/get')).href);
    const remoteChecksums = env.electron_use_remote_checksums || env.npm_config_electron_use_remote_checksums;
    await get.downloadArtifact({
      version,
      artifactName: 'electron',
      platform,
      arch,
      cacheRoot: env.electron_config_cache,
      checksums: remoteChecksums ? undefined : JSON.parse(readFileSync(join(dir, 'checksums.json'), 'utf8')),
      downloadOptions: {
        quiet: true,
        getProgressCallback: progress ? progressPrinter(`Downloading Electron ${version} (${platform}-${arch})`, progress) : undefined,
      },
    });
  } catch (error) {
    return { ok: false, reason: failureReason(error) };
  }
  // Unpacked by electron's own install script, from the cache the download just filled.
  const unpack = spawnSync(process.execPath, [join(dir, 'install.js')], { cwd: dir, env: { ...env, ELECTRON_GET_NO_PROGRESS: '1' }, encoding: 'utf8' });
  const path = findElectronBinary({ root, env });
  if (unpack.status !== 0 || !path) {
    const said = `${unpack.stderr ?? ''}`.split('\n').find((line) => line.trim()) ?? `exit ${unpack.status}`;
    return { ok: false, reason: `unpacking failed: ${said.trim()}` };
  }
  return { ok: true, path, fetched: true };
}

/** The one line that says the desktop app cannot start yet, and how to point Electron elsewhere. */
export function unavailableLine(reason, version = electronVersion()) {
  return (
    `Electron ${version} could not be downloaded (${reason}), so \`npm start\` opens the console in your browser (\`callout ui\`). ` +
    `For the desktop app, set ELECTRON_MIRROR to a mirror of Electron's releases, or ELECTRON_OVERRIDE_DIST_PATH to a folder holding Electron ${version}; \`npm start\` then uses it.`
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv.includes('--check')) {
    const path = findElectronBinary();
    console.log(path ?? 'no Electron binary');
    process.exit(path ? 0 : 1);
  }
  const result = await fetchElectronBinary();
  if (result.ok) console.log(`Electron ${electronVersion()}: ${result.path}`);
  else console.error(`callout: ${unavailableLine(result.reason)}`);
  process.exit(result.ok ? 0 : 1);
}
