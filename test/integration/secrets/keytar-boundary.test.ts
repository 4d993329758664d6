// keytar stays behind one door: only main/secrets/keytar-store.ts names it, and it is loaded
// lazily (importing main/secrets loads no native code).
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
const THE_ONE_MODULE = 'main/secrets/keytar-store.ts';

/** keytar itself, its subpaths, and its drop-in replacement. */
function namesKeytar(specifier: string): boolean {
  return /^(?:keytar|@napi-rs\/keyring)(?:\/.*)?$/.test(specifier);
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
 * Every string literal naming keytar, found with the TypeScript parser: import/export
 * declarations, `import type`, dynamic import(), require(), createRequire(...)('keytar'),
 * vi.mock('keytar'): any use of the name as a module specifier is a string literal. Comments
 * and longer strings ('keytar.node', prose) are not matches.
 */
function keytarLiterals(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const kind = file.endsWith('x') ? ts.ScriptKind.TSX : file.endsWith('js') ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && namesKeytar(node.text)) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      found.push(`${relative(ROOT, file).split(sep).join('/')}:${line + 1} '${node.text}'`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('keytar boundary', () => {
  it(`only ${THE_ONE_MODULE} names keytar (in ${SCANNED_DIRS.join(', ')})`, () => {
    const files = SCANNED_DIRS.flatMap((d) => sourceFiles(join(ROOT, d)));
    expect(files.length).toBeGreaterThan(10); // the scan really looked at the code base
    const hits = files.flatMap(keytarLiterals);
    const offenders = hits.filter((h) => !h.startsWith(`${THE_ONE_MODULE}:`));
    expect(offenders, 'keytar must only be loaded by main/secrets/keytar-store.ts').toEqual([]);
    // And the one module really does (so the scan is not vacuous).
    expect(hits.some((h) => h.startsWith(`${THE_ONE_MODULE}:`))).toBe(true);
  });

  it('the scanner catches every way of naming keytar', () => {
    const dir = mkdtempSync(join(tmpdir(), 'callout-keytar-scan-'));
    try {
      const cases: Record<string, string> = {
        'static.ts': "import keytar from 'keytar';",
        'type.ts': "import type { getPassword } from 'keytar';",
        'dynamic.ts': 'export const k = () => import(`keytar`);',
        'require.cjs': "const k = require('keytar');",
        'create-require.ts': 'import { createRequire } from \'node:module\'; createRequire(import.meta.url)("keytar");',
        'napi.ts': "import * as k from '@napi-rs/keyring/keytar';",
        'reexport.ts': "export * from 'keytar';",
      };
      for (const [name, text] of Object.entries(cases)) writeFileSync(join(dir, name), text);
      writeFileSync(join(dir, 'clean.ts'), "// keytar is mentioned here\nexport const file = 'keytar.node';\n");
      for (const name of Object.keys(cases)) expect(keytarLiterals(join(dir, name)), name).toHaveLength(1);
      expect(keytarLiterals(join(dir, 'clean.ts'))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('importing main/secrets loads no native keytar; the first keychain use does', async () => {
    // A fresh Node process (vitest's own may already hold keytar from another test file).
    const dir = mkdtempSync(join(tmpdir(), 'callout-keytar-lazy-'));
    try {
      const script = join(dir, 'check.mts');
      writeFileSync(
        script,
        `import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
const require = createRequire(import.meta.url);
const loaded = () => ({
  requireCache: Object.keys(require.cache).filter((k) => /[\\\\/]keytar[\\\\/]|keytar\\.node$/.test(k)).length,
  mappedLibraries: process.platform === 'linux'
    ? readFileSync('/proc/self/maps', 'utf8').split('\\n').filter((l) => l.includes('keytar.node')).length
    : 0,
});
const secrets = await import(process.argv[2]);
const afterImport = loaded();
const { status } = await secrets.openSecretStore({ forceSession: true });
const afterForcedSession = loaded();
await secrets.loadKeytar();
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
      // The detector works: once loaded, keytar shows up.
      expect(result.afterLoad.requireCache).toBeGreaterThan(0);
      if (process.platform === 'linux') expect(result.afterLoad.mappedLibraries).toBeGreaterThan(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
