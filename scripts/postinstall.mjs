#!/usr/bin/env node
// After `npm install` (never failing it): Electron's binary, when it can be downloaded. The native
// modules need nothing for Electron: better-sqlite3 and @napi-rs/keyring ship Node-API binaries that
// load in Node and in Electron alike. Where Electron's binary
// cannot be fetched (no route to its host, as on CI), one line says so and how to point Electron at a
// mirror or a local binary: the browser console (`npm start`, `callout ui`), the CLI and the tests do
// not need it. electron's own install script does not run (package.json "allowScripts").
import { fileURLToPath } from 'node:url';
import { electronVersion, fetchElectronBinary, ROOT, unavailableLine } from './electron-binary.mjs';

export async function postinstall({
  root = ROOT,
  env = process.env,
  say = (line) => process.stdout.write(`callout: ${line}\n`),
  progress = process.stderr,
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
  say(`Electron ${version} is ready for \`npm start\`${binary.fetched ? ' (downloaded)' : ''}.`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await postinstall().catch((error) => {
    // Never fail the install.
    process.stdout.write(`callout: postinstall could not finish (${error?.message ?? error}); \`npm start\` tries again.\n`);
  });
}
