#!/usr/bin/env node
// What an installer would carry: the packages electron-builder packs (its own npm collector, the
// same call `electron-builder` makes, minus the files electron-builder.yml's `files` leave out,
// matched as electron-builder matches them) and the built app in out/. Runs where Electron cannot (no binary, no packaging): `npm run size`, or
// `npm run size -- --json`. The README's "Installers" figures come from here.
import { createRequire } from 'node:module';
import { existsSync, lstatSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** electron-builder.yml's exclusions (its `files` patterns starting with "!"), as a test on a path relative to the project. */
export async function appExclusions(root = ROOT) {
  const require = createRequire(join(root, 'package.json'));
  const builderRequire = createRequire(require.resolve('app-builder-lib/package.json'));
  const { getConfig } = require('app-builder-lib/out/util/config/config');
  const minimatch = builderRequire('minimatch');
  const match = typeof minimatch === 'function' ? minimatch : minimatch.minimatch;
  const config = await getConfig(root, null, null);
  // getConfig gives `files` as [{ filter: [...] }] (electron-builder's FileSet form) or as plain strings.
  const patterns = (Array.isArray(config.files) ? config.files : [config.files])
    .flatMap((entry) => (typeof entry === 'string' ? [entry] : (entry?.filter ?? [])))
    .filter((p) => typeof p === 'string' && p.startsWith('!'))
    .map((p) => p.slice(1));
  return (path) => patterns.some((pattern) => match(path, pattern, { dot: true }));
}

/** Bytes of the files under dir that `excluded` keeps, not counting nested node_modules (packed as packages of their own). */
export function bytesUnder(dir, excluded = () => false, root = ROOT) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (excluded(relative(root, path).split(sep).join('/'))) continue;
    if (entry.isDirectory()) total += bytesUnder(path, excluded, root);
    else if (entry.isFile()) total += lstatSync(path).size;
  }
  return total;
}

/** The production packages electron-builder would pack: [{ name, version, dir, bytes }], largest first. */
export async function packedModules(root = ROOT) {
  const require = createRequire(join(root, 'package.json'));
  const { getCollectorByPackageManager } = require('app-builder-lib/out/node-module-collector');
  const { TmpDir } = require('temp-file');
  const tmp = new TmpDir('callout-app-size');
  try {
    const collector = getCollectorByPackageManager('npm', root, tmp);
    const { nodeModules } = await collector.getNodeModules({ packageName: require(join(root, 'package.json')).name });
    const flat = [];
    const walk = (list) => {
      for (const module of list) {
        flat.push(module);
        if (module.dependencies) walk(module.dependencies);
      }
    };
    walk(nodeModules);
    const excluded = await appExclusions(root);
    return flat
      .map((m) => ({ name: m.name, version: m.version, dir: relative(root, m.dir), bytes: bytesUnder(m.dir, excluded, root) }))
      .filter((m) => m.bytes > 0)
      .sort((a, b) => b.bytes - a.bytes);
  } finally {
    await tmp.cleanup();
  }
}

const mb = (bytes) => `${(bytes / 1048576).toFixed(1)} MB`;

async function main() {
  const modules = await packedModules();
  const packages = modules.reduce((sum, m) => sum + m.bytes, 0);
  const out = existsSync(join(ROOT, 'out')) ? bytesUnder(join(ROOT, 'out')) : 0;
  if (process.argv.includes('--json')) {
    process.stdout.write(`${JSON.stringify({ packages: modules.length, packageBytes: packages, outBytes: out, modules }, null, 2)}\n`);
    return;
  }
  process.stdout.write(`node_modules packed: ${modules.length} packages, ${mb(packages)}\n`);
  process.stdout.write(`out/ (the built app): ${out ? mb(out) : 'not built (npm run build)'}\n`);
  process.stdout.write('largest packages:\n');
  for (const m of modules.slice(0, 12)) process.stdout.write(`  ${mb(m.bytes).padStart(9)}  ${m.name}@${m.version}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
