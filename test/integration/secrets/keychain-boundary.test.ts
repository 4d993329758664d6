// The keychain libraries stay behind one door each: only main/secrets/keychain-store.ts names
// @napi-rs/keyring, only main/secrets/keytar-layout.ts names @jellybrick/dbus-next (the Secret
// Service, for keys keytar stored), keytar is named nowhere; the native library is loaded lazily
// (importing main/secrets loads no native code).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..');
const SCANNED_DIRS = ['main', 'preload', 'renderer', 'common', 'bin'];
const SOURCE_FILE = /\.(?:[cm]?ts|tsx|[cm]?js|jsx)$/;
/** Each keychain library (and its subpaths), and the one module allowed to name it (null: none). */
const DOORS: ReadonlyArray<{ library: RegExp; module: string | null }> = [
  { library: /^@napi-rs\/keyring(?:\/.*)?$/, module: 'main/secrets/keychain-store.ts' },
  { library: /^@jellybrick\/dbus-next(?:\/.*)?$/, module: 'main/secrets/keytar-layout.ts' },
  { library: /^keytar(?:\/.*)?$/, module: null },
];

function namesKeychainLibrary(specifier: string): boolean {
  return DOORS.some((door) => door.library.test(specifier));
}

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (entry.isFile() && SOURCE_FILE.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/**
 * Every string literal naming a keychain library, found with the TypeScript parser: import/export
 * declarations, `import type`, dynamic import(), require(), createRequire(...)('keytar'),
 * vi.mock('keytar'): any use of the name as a module specifier is a string literal. Comments
 * and longer strings ('keytar.node', prose) are not matches.
 */
function keychainLiterals(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const kind = file.endsWith('x') ? ts.ScriptKind.TSX : file.endsWith('js') ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && namesKeychainLibrary(node.text)) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      found.push(`${relative(ROOT, file).split(sep).join('/')}:${line + 1} '${node.text}'`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('keychain library boundary', () => {
  it(`each keychain library is named by its one module only (in ${SCANNED_DIRS.join(', ')})`, () => {
    const files = SCANNED_DIRS.flatMap((d) => sourceFiles(join(ROOT, d)));
    expect(files.length).toBeGreaterThan(10); // the scan really looked at the code base
    const hits = files.flatMap(keychainLiterals);
    const offenders = hits.filter((hit) => {
      const specifier = /'([^']*)'$/.exec(hit)![1]!;
      const door = DOORS.find((d) => d.library.test(specifier))!;
      return door.module === null || !hit.startsWith(`${door.module}:`);
    });
    expect(offenders, 'a keychain library may only be loaded by its one module; keytar by none').toEqual([]);
    // And the modules really do (so the scan is not vacuous).
    for (const door of DOORS.filter((d) => d.module !== null))
      expect(
        hits.some((h) => h.startsWith(`${door.module}:`)),
        door.module!,
      ).toBe(true);
  });

  it('the scanner catches every way of naming keytar', () => {
    const dir = mkdtempSync(join(tmpdir(), 'callout-keychain-scan-'));
    try {
      const cases: Record<string, string> = {
        'static.ts': "import keytar from 'keytar';",
        'type.ts': "import type { getPassword } from 'keytar';",
        'dynamic.ts': 'export const k = () => import(`keytar`);',
        'require.cjs': "const k = require('keytar');",
        'create-require.ts': 'import { createRequire } from \'node:module\'; createRequire(import.meta.url)("keytar");',
        'napi.ts': "import * as k from '@napi-rs/keyring/keytar';",
        'reexport.ts': "export * from 'keytar';",
        'dbus.ts': "import { sessionBus } from '@jellybrick/dbus-next';",
      };
      for (const [name, text] of Object.entries(cases)) writeFileSync(join(dir, name), text);
      writeFileSync(join(dir, 'clean.ts'), "// keytar is mentioned here\nexport const file = 'keytar.node';\n");
      for (const name of Object.keys(cases)) expect(keychainLiterals(join(dir, name)), name).toHaveLength(1);
      expect(keychainLiterals(join(dir, 'clean.ts'))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('importing main/secrets loads no native keychain library; the first keychain use does', async () => {
    // A fresh Node process (vitest's own may already hold the library from another test file).
    const dir = mkdtempSync(join(tmpdir(), 'callout-keychain-lazy-'));
    try {
      const script = join(dir, 'check.mts');
      writeFileSync(
        script,
        `import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
const require = createRequire(import.meta.url);
const loaded = () => ({
  requireCache: Object.keys(require.cache).filter((k) => /[\\\\/]@napi-rs[\\\\/]keyring|keyring\\.[^\\\\/]*\\.node$/.test(k)).length,
  mappedLibraries: process.platform === 'linux'
    ? readFileSync('/proc/self/maps', 'utf8').split('\\n').filter((l) => /keyring\\.[^/]*\\.node/.test(l)).length
    : 0,
});
const secrets = await import(process.argv[2]);
const afterImport = loaded();
const { status } = await secrets.openSecretStore({ forceSession: true });
const afterForcedSession = loaded();
await secrets.loadKeychainModule();
const afterLoad = loaded();
console.log(JSON.stringify({ afterImport, afterForcedSession, afterLoad, status }));
`,
      );
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', script, pathToFileURL(join(ROOT, 'main', 'secrets', 'index.ts')).href],
        { cwd: ROOT, timeout: 30_000 },
      );
      const result = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Record<
        'afterImport' | 'afterForcedSession' | 'afterLoad',
        { requireCache: number; mappedLibraries: number }
      > & { status: { kind: string } };
      expect(result.afterImport).toEqual({ requireCache: 0, mappedLibraries: 0 });
      expect(result.afterForcedSession).toEqual({ requireCache: 0, mappedLibraries: 0 });
      expect(result.status.kind).toBe('session');
      // The detector works: once loaded, the library shows up.
      expect(result.afterLoad.requireCache).toBeGreaterThan(0);
      if (process.platform === 'linux') expect(result.afterLoad.mappedLibraries).toBeGreaterThan(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
