// electron-builder `beforePack` hook (see electron-builder.yml). electron-builder does not
// rebuild native modules for us (npmRebuild: false keeps node_modules on Node's ABI for
// tests and the CLI), so the Electron builds must already be in native/electron/, made by
// `node scripts/rebuild-electron-native.mjs` for the same Electron version, platform and
// arch as the package being made. Stop here with a clear message if they are not.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// builder-util's Arch enum: ia32 = 0, x64 = 1, armv7l = 2, arm64 = 3, universal = 4.
const ARCH_NAMES = ['ia32', 'x64', 'armv7l', 'arm64', 'universal'];
const REQUIRED = ['better-sqlite3'];

export function archName(arch) {
  return typeof arch === 'number' ? (ARCH_NAMES[arch] ?? String(arch)) : String(arch);
}

function installedElectronVersion(projectDir) {
  try {
    return JSON.parse(readFileSync(join(projectDir, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

/**
 * Checks native/electron/manifest.json against the package being built. Returns a list of
 * problems (empty when all is well); exported for the unit test.
 */
export function checkNativeBuilds({ projectDir, platform, arch, electronVersion }) {
  const fix = `run: node scripts/rebuild-electron-native.mjs${arch === 'universal' ? '' : ` --arch ${arch}`}`;
  const dir = join(projectDir, 'native', 'electron');
  const manifestFile = join(dir, 'manifest.json');
  if (!existsSync(manifestFile)) return [`native/electron/manifest.json is missing: the Electron builds of ${REQUIRED.join(' and ')} were never made (${fix})`];
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
  } catch (error) {
    return [`native/electron/manifest.json is unreadable (${error.message}); ${fix}`];
  }
  const problems = [];
  const wantPlatform = platform === 'mas' ? 'darwin' : platform;
  if (electronVersion && manifest.electron !== electronVersion) problems.push(`built for Electron ${manifest.electron}, packaging Electron ${electronVersion}`);
  if (manifest.platform !== wantPlatform)
    problems.push(`built on ${manifest.platform}, packaging for ${wantPlatform} (native modules cannot be cross-compiled)`);
  if (arch === 'universal') problems.push('universal macOS builds need an x64 and an arm64 build merged; build each arch separately instead');
  else if (manifest.arch !== arch) problems.push(`built for ${manifest.arch}, packaging for ${arch}`);
  for (const name of REQUIRED) {
    const entry = manifest.modules && manifest.modules[name];
    if (!entry) {
      problems.push(`${name} is not in the manifest`);
      continue;
    }
    const file = join(dir, entry.binary);
    if (!existsSync(file)) problems.push(`${entry.binary} is missing`);
    else if (entry.sha256 && createHash('sha256').update(readFileSync(file)).digest('hex') !== entry.sha256) {
      problems.push(`${entry.binary} does not match the manifest (changed after the build?)`);
    }
  }
  if (problems.length > 0) problems.push(fix);
  return problems;
}

export async function beforePack(context) {
  const projectDir = (context.packager && context.packager.projectDir) || process.cwd();
  let electronVersion;
  try {
    electronVersion = context.packager.info.framework.version;
  } catch {
    electronVersion = undefined;
  }
  electronVersion = electronVersion || installedElectronVersion(projectDir);
  const problems = checkNativeBuilds({
    projectDir,
    platform: context.electronPlatformName,
    arch: archName(context.arch),
    electronVersion,
  });
  if (problems.length > 0) {
    throw new Error(`Callout: the Electron builds of the native modules are not ready:\n  - ${problems.join('\n  - ')}`);
  }
}

export default beforePack;
