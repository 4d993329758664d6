#!/usr/bin/env node
// After `npm install`: build better-sqlite3 and keytar for Electron's ABI into native/electron,
// beside the Node builds in node_modules, so that `npm start` (Electron) and `npm test` / the CLI
// (Node) both work whichever ran last. Never fails the install: when Electron's binary was not
// installed (ELECTRON_SKIP_BINARY_DOWNLOAD, as on CI) there is nothing to start, so it skips.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const say = (m) => process.stdout.write(`callout postinstall: ${m}\n`);

function electronBinaryInstalled() {
  const pathFile = join(root, 'node_modules', 'electron', 'path.txt');
  if (!existsSync(pathFile)) return false;
  return existsSync(join(root, 'node_modules', 'electron', 'dist', readFileSync(pathFile, 'utf8').trim()));
}

if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD || !electronBinaryInstalled()) {
  say('Electron is not installed here, so the Electron build of the native modules was skipped (tests and the CLI use the Node build). Run `npm run native:electron` before `npm start` on a machine with Electron.');
  process.exit(0);
}
const r = spawnSync(process.execPath, [join(root, 'scripts', 'rebuild-electron-native.mjs')], { stdio: 'inherit' });
if (r.status !== 0) say('the Electron build of the native modules failed (see above); `npm start` will retry it. Tests and the CLI are unaffected.');
