#!/usr/bin/env node
// Builds the native addons for Electron's ABI into native/electron/, leaving the
// node_modules builds (for Node: vitest, the CLI) untouched.
//
// better-sqlite3 uses V8 directly, so a build for Node 20 cannot load in Electron and vice versa.
//
// How: each module is copied (without its build/ folder) into
// native/.build/<electron-version>-<platform>-<arch>/node_modules/<name>, built there, and
// its .node file copied to native/electron/. The staging folder sits inside the repository
// so that build-time requires still resolve through the project's node_modules. The builder is
//   - @electron/rebuild when it can run here (major 3 on Node 20; major 4 wants Node >= 22.12), or
//   - node-gyp: `node-gyp rebuild --release --target=<electron> --arch=<arch>
//     --dist-url=https://electronjs.org/headers --runtime=electron --devdir=~/.electron-gyp`.
// Both need a C/C++ toolchain (python3, make, a compiler) and Electron's headers, which are
// downloaded from https://electronjs.org/headers (or ELECTRON_HEADERS_URL, a mirror) unless
// --headers-dir points at an unpacked copy. native/electron/manifest.json records what was built, for which Electron,
// platform and arch; scripts/electron-builder-before-pack.cjs checks it before packaging.
//
// Usage:
//   node scripts/rebuild-electron-native.mjs [--electron <version>] [--arch <arch>]
//        [--modules better-sqlite3] [--method auto|electron-rebuild|node-gyp]
//        [--headers-dir <dir>] [--from-source] [--skip-preflight] [--dry-run] [--if-missing]
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const requireFromRoot = createRequire(join(ROOT, 'package.json'));
// ELECTRON_HEADERS_URL: a mirror of Electron's headers (the same layout as electronjs.org/headers).
const HEADERS_URL = process.env.ELECTRON_HEADERS_URL?.trim() || 'https://electronjs.org/headers';

/** The addons, and where each one's binary ends up after a build. */
export const MODULES = {
  'better-sqlite3': { binary: 'better_sqlite3.node', napi: false },
};

class UserError extends Error {}

function parseArgs(argv) {
  const options = {
    electron: undefined,
    arch: process.arch,
    modules: Object.keys(MODULES),
    method: 'auto',
    headersDir: undefined,
    fromSource: false,
    preflight: true,
    dryRun: false,
    ifMissing: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const next = argv[++i];
      if (next === undefined || next.startsWith('--')) throw new UserError(`${arg} needs a value`);
      return next;
    };
    switch (arg) {
      case '--electron':
        options.electron = value();
        break;
      case '--arch':
        options.arch = value();
        break;
      case '--modules':
        options.modules = value()
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean);
        break;
      case '--method':
        options.method = value();
        break;
      case '--headers-dir':
        options.headersDir = value();
        break;
      case '--from-source':
        options.fromSource = true;
        break;
      case '--skip-preflight':
        options.preflight = false;
        break;
      case '--dry-run':
        options.dryRun = true;
        break;
      case '--if-missing':
        options.ifMissing = true;
        break;
      case '--help':
      case '-h':
        console.log(
          readFileSync(fileURLToPath(import.meta.url), 'utf8')
            .split('\n')
            .filter((line) => line.startsWith('//'))
            .join('\n'),
        );
        process.exit(0);
        break;
      default:
        throw new UserError(`unknown option ${arg} (see --help)`);
    }
  }
  for (const name of options.modules) {
    if (!(name in MODULES)) throw new UserError(`unknown module ${name}; known: ${Object.keys(MODULES).join(', ')}`);
  }
  if (!['auto', 'electron-rebuild', 'node-gyp'].includes(options.method)) throw new UserError(`--method must be auto, electron-rebuild or node-gyp`);
  return options;
}

function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

function electronVersion(explicit) {
  if (explicit) return explicit.replace(/^v/, '');
  try {
    return readJson(requireFromRoot.resolve('electron/package.json')).version;
  } catch {
    throw new UserError('cannot find the installed electron package: pass --electron <version>');
  }
}

function moduleDir(name) {
  try {
    return dirname(requireFromRoot.resolve(`${name}/package.json`));
  } catch {
    throw new UserError(`${name} is not installed in node_modules: run npm install first`);
  }
}

function nodeSatisfies(major, minor) {
  const [maj = 0, min = 0] = process.versions.node.split('.').map(Number);
  return maj > major || (maj === major && min >= minor);
}

/** The package.json of an installed package, even when its "exports" hide it. */
function packageJsonOf(name) {
  let dir;
  try {
    dir = dirname(requireFromRoot.resolve(name));
  } catch {
    const direct = join(ROOT, 'node_modules', ...name.split('/'), 'package.json');
    return existsSync(direct) ? direct : undefined;
  }
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate) && readJson(candidate).name === name) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** @electron/rebuild, when installed and able to run on this Node. */
function electronRebuildInfo() {
  const pkgFile = packageJsonOf('@electron/rebuild');
  if (!pkgFile) return { usable: false, reason: '@electron/rebuild is not installed' };
  const version = readJson(pkgFile).version;
  const major = Number(version.split('.')[0]);
  if (major === 3) return { usable: true, version, dir: dirname(pkgFile) };
  if (major >= 4 && nodeSatisfies(22, 12)) return { usable: true, version, dir: dirname(pkgFile) };
  return { usable: false, version, reason: `@electron/rebuild ${version} needs Node >= 22.12 (this is ${process.versions.node})` };
}

function nodeGypScript() {
  const candidates = [];
  try {
    candidates.push(requireFromRoot.resolve('node-gyp/bin/node-gyp.js'));
  } catch {
    // not a project dependency
  }
  if (process.env.npm_config_node_gyp) candidates.push(process.env.npm_config_node_gyp);
  const found = candidates.find((file) => existsSync(file));
  if (!found) throw new UserError('node-gyp is not available: install it (npm i -D node-gyp) or run this script through npm');
  return found;
}

/**
 * The environment for the build. npm passes its config as npm_config_* variables, and a
 * `nodedir` there (Debian sets nodedir=/usr) would make node-gyp compile against Node's
 * headers instead of Electron's: drop it, and say what we want explicitly.
 */
function buildEnv(version, arch, headersDir) {
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    const lower = key.toLowerCase();
    if (
      [
        'npm_config_nodedir',
        'npm_config_target',
        'npm_config_disturl',
        'npm_config_dist_url',
        'npm_config_runtime',
        'npm_config_arch',
        'npm_config_target_arch',
      ].includes(lower)
    )
      delete env[key];
  }
  env.npm_config_runtime = 'electron';
  env.npm_config_target = version;
  env.npm_config_arch = arch;
  env.npm_config_target_arch = arch;
  env.npm_config_disturl = HEADERS_URL;
  if (headersDir) env.npm_config_nodedir = headersDir;
  return env;
}

function devDir() {
  return join(homedir(), '.electron-gyp');
}

function headersCached(version) {
  return existsSync(join(devDir(), version, 'include', 'node', 'node_version.h'));
}

async function preflight(version, options) {
  if (options.headersDir) {
    if (!existsSync(join(options.headersDir, 'include', 'node', 'node_version.h'))) {
      throw new UserError(`--headers-dir ${options.headersDir} does not contain include/node/node_version.h (unpack node-v${version}-headers.tar.gz there)`);
    }
    return;
  }
  if (headersCached(version)) return;
  const url = `${HEADERS_URL}/v${version}/node-v${version}-headers.tar.gz`;
  try {
    const response = await fetch(url, { method: 'HEAD', redirect: 'follow', signal: AbortSignal.timeout(15_000) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
  } catch (error) {
    throw new UserError(
      [
        `cannot reach Electron's headers for v${version}:`,
        `  ${url}`,
        `  (${error?.cause?.code ?? error?.message ?? error})`,
        'Building native modules for Electron needs them. Either run this where electronjs.org is reachable,',
        `or download and unpack node-v${version}-headers.tar.gz and pass --headers-dir <the unpacked folder>.`,
        'Nothing was changed: node_modules still holds the Node builds (tests and the CLI are unaffected).',
      ].join('\n'),
    );
  }
}

function stage(name, stagingRoot) {
  const source = moduleDir(name);
  const target = join(stagingRoot, 'node_modules', name);
  rmSync(target, { recursive: true, force: true });
  cpSync(source, target, {
    recursive: true,
    filter: (file) => {
      const rel = relative(source, file);
      return !(rel === 'build' || rel.startsWith(`build${sep}`) || rel === 'node_modules' || rel.startsWith(`node_modules${sep}`));
    },
  });
  return { source, target, version: readJson(join(source, 'package.json')).version };
}

function runNodeGyp(moduleRoot, version, options) {
  const args = [
    nodeGypScript(),
    'rebuild',
    '--release',
    `--target=${version}`,
    `--arch=${options.arch}`,
    `--dist-url=${HEADERS_URL}`,
    '--runtime=electron',
    `--devdir=${devDir()}`,
  ];
  if (options.headersDir) args.push(`--nodedir=${options.headersDir}`);
  console.log(`  $ node ${args.map((arg) => (arg.includes(' ') ? JSON.stringify(arg) : arg)).join(' ')}   (in ${relative(ROOT, moduleRoot)})`);
  if (options.dryRun) return;
  const result = spawnSync(process.execPath, args, { cwd: moduleRoot, stdio: 'inherit', env: buildEnv(version, options.arch, options.headersDir) });
  if (result.error) throw new UserError(`node-gyp could not start: ${result.error.message}`);
  if (result.status !== 0) {
    throw new UserError(
      `node-gyp failed (exit ${result.status}) in ${relative(ROOT, moduleRoot)}. Check the output above: a missing compiler/python/make, ` +
        `or headers that could not be downloaded from ${HEADERS_URL} (use --headers-dir).`,
    );
  }
}

async function runElectronRebuild(info, stagingRoot, names, version, options) {
  console.log(
    `  @electron/rebuild ${info.version}: rebuild({ buildPath: ${relative(ROOT, stagingRoot)}, electronVersion: ${version}, arch: ${options.arch}, onlyModules: [${names.join(', ')}], force: true })`,
  );
  if (options.dryRun) return;
  const entry = createRequire(join(info.dir, 'package.json')).resolve('@electron/rebuild');
  const loaded = await import(pathToFileURL(entry).href);
  const rebuild = loaded.rebuild ?? loaded.default?.rebuild;
  if (typeof rebuild !== 'function') throw new UserError(`@electron/rebuild ${info.version} has no rebuild() export`);
  // It spawns node-gyp with process.env: give it the cleaned environment for the duration.
  const saved = { ...process.env };
  const env = buildEnv(version, options.arch, options.headersDir);
  for (const key of Object.keys(process.env)) delete process.env[key];
  Object.assign(process.env, env);
  try {
    await rebuild({
      buildPath: stagingRoot,
      electronVersion: version,
      arch: options.arch,
      onlyModules: names,
      force: true,
      mode: 'sequential',
      headerURL: HEADERS_URL,
      buildFromSource: options.fromSource,
    });
  } catch (error) {
    throw new UserError(`@electron/rebuild failed: ${error?.message ?? error}`);
  } finally {
    for (const key of Object.keys(process.env)) delete process.env[key];
    Object.assign(process.env, saved);
  }
}

/**
 * A V8-ABI addon built for Electron must NOT load in this Node (different
 * NODE_MODULE_VERSION). If it loads, it was built against Node's headers (e.g. a stray
 * nodedir): refuse to install it. Tried in a child process so a crash cannot take us down.
 */
function assertNotNodeAbi(name, file) {
  const probe = spawnSync(process.execPath, ['-e', 'require(process.argv[1])', file], { encoding: 'utf8' });
  if (probe.status === 0) {
    throw new UserError(
      `the build of ${name} loads in Node ${process.versions.node} (NODE_MODULE_VERSION ${process.versions.modules}), so it was built ` +
        `against Node's headers, not Electron's. Check --headers-dir / npm's nodedir setting.`,
    );
  }
  const reason = /NODE_MODULE_VERSION \d+/.exec(`${probe.stderr}`)?.[0];
  console.log(`  ${name}: not loadable by Node, as expected${reason ? ` (built for ${reason})` : ''}`);
}

function sha256(file) {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

async function main(argv) {
  const options = parseArgs(argv);
  const version = electronVersion(options.electron);
  const platform = process.platform;
  const outDir = join(ROOT, 'native', 'electron');
  const stagingRoot = join(ROOT, 'native', '.build', `${version}-${platform}-${options.arch}`);
  if (options.ifMissing) {
    // `npm start`: nothing to do when the builds for this Electron are already there.
    const manifestFile = join(outDir, 'manifest.json');
    const m = existsSync(manifestFile) ? readJson(manifestFile) : null;
    const complete = m && m.electron === version && m.platform === platform && m.arch === options.arch && options.modules.every((n) => m.modules?.[n]);
    if (complete) return;
  }

  console.log(`Building ${options.modules.join(', ')} for Electron ${version} (${platform}-${options.arch}) into ${relative(ROOT, outDir)}/`);
  if (options.arch !== process.arch) console.log(`  note: cross-arch build (${process.arch} host); this needs a cross toolchain for node-gyp`);

  let method = options.method;
  const rebuildInfo = electronRebuildInfo();
  if (method === 'auto') method = rebuildInfo.usable ? 'electron-rebuild' : 'node-gyp';
  if (method === 'electron-rebuild' && !rebuildInfo.usable) throw new UserError(rebuildInfo.reason);
  console.log(`  builder: ${method === 'electron-rebuild' ? `@electron/rebuild ${rebuildInfo.version}` : `node-gyp (${rebuildInfo.reason ?? 'requested'})`}`);

  if (options.preflight && !options.dryRun) await preflight(version, options);

  let staged;
  if (options.dryRun) {
    staged = Object.fromEntries(
      options.modules.map((name) => [name, { source: moduleDir(name), target: join(stagingRoot, 'node_modules', name), version: '?' }]),
    );
  } else {
    mkdirSync(stagingRoot, { recursive: true });
    writeFileSync(
      join(stagingRoot, 'package.json'),
      `${JSON.stringify({ name: 'callout-native-staging', private: true, dependencies: Object.fromEntries(options.modules.map((name) => [name, '*'])) }, null, 2)}\n`,
    );
    staged = Object.fromEntries(options.modules.map((name) => [name, stage(name, stagingRoot)]));
  }

  if (method === 'electron-rebuild') {
    await runElectronRebuild(rebuildInfo, stagingRoot, options.modules, version, options);
  } else {
    for (const name of options.modules) runNodeGyp(staged[name].target, version, options);
  }
  if (options.dryRun) {
    console.log('dry run: nothing built');
    return;
  }

  // Check every build before installing any, so a failure leaves native/electron as it was.
  const builds = options.modules.map((name) => {
    const built = join(staged[name].target, 'build', 'Release', MODULES[name].binary);
    if (!existsSync(built)) throw new UserError(`the build of ${name} did not produce ${relative(ROOT, built)}`);
    if (!MODULES[name].napi) assertNotNodeAbi(name, built);
    return { name, built };
  });

  mkdirSync(outDir, { recursive: true });
  const manifestFile = join(outDir, 'manifest.json');
  const manifest = existsSync(manifestFile) ? readJson(manifestFile) : { modules: {} };
  if (manifest.electron !== version || manifest.platform !== platform || manifest.arch !== options.arch) manifest.modules = {};
  for (const { name, built } of builds) {
    const target = join(outDir, MODULES[name].binary);
    copyFileSync(built, target);
    manifest.modules[name] = { version: staged[name].version, binary: MODULES[name].binary, sha256: sha256(target) };
    console.log(`  ${name} ${staged[name].version} → ${relative(ROOT, target)}`);
  }
  Object.assign(manifest, { electron: version, platform, arch: options.arch, builtAt: new Date().toISOString() });
  writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(`wrote ${relative(ROOT, manifestFile)}`);
}

main(process.argv.slice(2)).catch((error) => {
  if (error instanceof UserError) {
    console.error(`rebuild-electron-native: ${error.message}`);
    process.exitCode = 2;
  } else {
    console.error(error);
    process.exitCode = 1;
  }
});
