#!/usr/bin/env node
// After `npm install` (never failing it): Electron's binary, when it can be downloaded, then the
// native modules built for Electron into native/electron (beside the Node builds in node_modules, so
// that the desktop app and the tests / CLI both work whichever ran last). Where Electron's binary
// cannot be fetched (no route to its host, as on CI), one line says so and how to point Electron at a
// mirror or a local binary: the browser console (`npm start`, `callout ui`), the CLI and the tests do
// not need it. electron's own install script does not run (package.json "allowScripts").
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { electronVersion, fetchElectronBinary, ROOT, unavailableLine } from './electron-binary.mjs';

/** The first line of a failed step's output that says something. */
function firstLine(text) {
  return (
    `${text ?? ''}`
      .split('\n')
      .map((line) =>
        line
          .replace(/^rebuild-electron-native:\s*/, '')
          .replace(/:\s*$/, '')
          .trim(),
      )
      .find(Boolean) ?? ''
  );
}

/** Builds the native modules for Electron unless they are there; its output only when it fails. */
function buildNativeModules(root) {
  return spawnSync(process.execPath, [join(root, 'scripts', 'rebuild-electron-native.mjs'), '--if-missing'], { cwd: root, encoding: 'utf8' });
}

export async function postinstall({
  root = ROOT,
  env = process.env,
  say = (line) => process.stdout.write(`callout: ${line}\n`),
  progress = process.stderr,
  build = buildNativeModules,
} = {}) {
  const version = electronVersion(root);
  if (env.ELECTRON_SKIP_BINARY_DOWNLOAD) {
    say(`Electron ${version} was not downloaded (ELECTRON_SKIP_BINARY_DOWNLOAD is set): \`npm start\` opens the console in your browser until it is.`);
    return;
  }
  const binary = await fetchElectronBinary({ root, env, progress });
  if (!binary.ok) {
    say(unavailableLine(binary.reason, version));
    return;
  }
  const built = build(root);
  if (built.status === 0) {
    say(`Electron ${version} is ready for \`npm start\`${binary.fetched ? ' (downloaded)' : ''}.`);
    return;
  }
  const why = firstLine(built.stderr) || firstLine(built.stdout) || `exit ${built.status}`;
  say(
    `Electron ${version} is installed, but the native modules could not be built for it (${why}); \`npm start\` tries again. The browser console, the CLI and the tests do not need them.`,
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await postinstall().catch((error) => {
    // Never fail the install.
    process.stdout.write(`callout: postinstall could not finish (${error?.message ?? error}); \`npm start\` tries again.\n`);
  });
}
