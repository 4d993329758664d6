#!/usr/bin/env node
// `npm start`: the desktop app where Electron can run here, otherwise the same console in a browser
// (`callout ui`), saying why in one line. The desktop app needs a display and Electron's binary
// (fetched now, with progress, when it is missing and can be downloaded). Arguments after `npm start --` go to `callout ui`
// (e.g. `npm start -- --port 8080 --no-open`).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fetchElectronBinary, ROOT } from './electron-binary.mjs';

const requireHere = createRequire(join(ROOT, 'package.json'));

/** Why the desktop app cannot open a window here, before anything is downloaded, or null. */
export function displayProblem(env = process.env, platform = process.platform) {
  if (platform !== 'linux' && platform !== 'freebsd' && platform !== 'openbsd') return null;
  return env.DISPLAY || env.WAYLAND_DISPLAY ? null : 'there is no display here (neither DISPLAY nor WAYLAND_DISPLAY is set)';
}

/** Decides how to start: { desktop: binary path } or { browser: why }. Each step runs only when the one before passed. */
export async function chooseStart({ env = process.env, platform = process.platform, fetch = fetchElectronBinary } = {}) {
  const noDisplay = displayProblem(env, platform);
  if (noDisplay) return { browser: noDisplay };
  const binary = await fetch({ env, progress: process.stderr });
  if (!binary.ok)
    return {
      browser: `Electron's binary is not here and could not be downloaded (${binary.reason}); set ELECTRON_MIRROR or ELECTRON_OVERRIDE_DIST_PATH for the desktop app`,
    };
  return { desktop: binary.path };
}

/** electron-vite's command (its bin is not among the package's exports: found beside its package.json). */
export function electronViteBin() {
  return join(dirname(requireHere.resolve('electron-vite/package.json')), 'bin', 'electron-vite.js');
}

/**
 * Runs a command in the foreground; resolves with its exit code. Ctrl-C reaches the child from the
 * terminal itself (this process just waits for it to finish); a SIGTERM sent to this process is passed on.
 */
function foreground(command, args, env = process.env) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit', env });
    const wait = () => undefined;
    const forward = () => child.kill('SIGTERM');
    process.on('SIGINT', wait);
    process.on('SIGTERM', forward);
    child.on('exit', (code, signal) => {
      process.off('SIGINT', wait);
      process.off('SIGTERM', forward);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

async function main(args) {
  const electronVite = electronViteBin();
  const choice = await chooseStart();
  if (choice.desktop) {
    // electron-vite preview builds, then starts this Electron (ELECTRON_EXEC_PATH also covers ELECTRON_OVERRIDE_DIST_PATH).
    return foreground(process.execPath, [electronVite, 'preview'], { ...process.env, ELECTRON_EXEC_PATH: choice.desktop });
  }
  process.stdout.write(`callout: opening the console in your browser (\`callout ui\`) instead of the desktop app: ${choice.browser}.\n`);
  const built = await foreground(process.execPath, [electronVite, 'build', '--logLevel', 'error']);
  if (built !== 0) return built;
  return foreground(process.execPath, [join(ROOT, 'bin', 'callout.cjs'), 'ui', ...args]);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = await main(process.argv.slice(2));
}
