// What an installer carries: electron-builder packs the production dependencies (its own npm
// collector, called here as electron-builder calls it) and out/. The renderer is bundled by Vite, so
// its packages (React, Ant Design, ECharts, TanStack) are build-time only; so are TypeScript and type
// packages. Every runtime dependency is one that main, common or preload really imports.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { join, resolve, sep } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import ts from 'typescript';
import { packedModules } from '../../../scripts/app-size.mjs';
import { KEYCHAIN_LIBRARY } from '../../../main/secrets/keychain-store';

const ROOT = resolve(__dirname, '../../..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|mts|cts)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The .node files under dir, not counting nested node_modules (packed as packages of their own). */
function nodeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules') return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return nodeFiles(path);
    return entry.isFile() && entry.name.endsWith('.node') ? [path] : [];
  });
}

/** The package a specifier names ('@scope/name/sub' → '@scope/name'), or null for relative paths and builtins. */
function packageOf(specifier: string): string | null {
  if (specifier.startsWith('.') || specifier.startsWith('node:') || builtinModules.includes(specifier)) return null;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** Packages a file loads at run time: value imports, re-exports, import(), require() and createRequire(…)(); `import type` is not one. */
function runtimeImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        clause?.isTypeOnly ||
        (clause && !clause.name && clause.namedBindings && ts.isNamedImports(clause.namedBindings) && clause.namedBindings.elements.every((e) => e.isTypeOnly));
      if (!typeOnly) found.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier) && !node.isTypeOnly) {
      found.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.arguments.length === 1 && ts.isStringLiteral(node.arguments[0]!)) {
      const callee = node.expression;
      const createRequired = ts.isCallExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === 'createRequire';
      if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === 'require') || createRequired)
        found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the packaged app', () => {
  const imported = new Set(
    ['main', 'common', 'preload']
      .flatMap((dir) => sources(join(ROOT, dir)))
      .flatMap(runtimeImports)
      .map(packageOf)
      .filter((name): name is string => name !== null)
      // The keychain library is loaded lazily, by a name held in a constant.
      .concat(KEYCHAIN_LIBRARY),
  );

  it('every runtime dependency is loaded by main, common or preload; everything they load is one', () => {
    const runtime = Object.keys(pkg.dependencies);
    expect(runtime.filter((name) => !imported.has(name))).toEqual([]);
    // Electron is provided by the app itself, not by node_modules.
    expect([...imported].filter((name) => name !== 'electron' && !runtime.includes(name)).sort()).toEqual([]);
  });

  it('the renderer’s packages are build-time only (Vite bundles them into out/renderer)', () => {
    for (const name of ['react', 'react-dom', 'antd', '@ant-design/icons', 'echarts', '@tanstack/react-query', '@tanstack/react-virtual', 'react-i18next']) {
      expect(pkg.dependencies[name], name).toBeUndefined();
      expect(pkg.devDependencies[name], name).toBeDefined();
    }
  });

  describe('what electron-builder would pack', () => {
    let packed: { name: string; dir: string; bytes: number }[];
    beforeAll(async () => {
      packed = await packedModules(ROOT);
    }, 60_000);

    it('holds the native modules and the CLI’s packages, and no renderer, TypeScript, type or command-line-tool package', () => {
      const names = new Set(packed.map((m) => m.name));
      for (const name of ['better-sqlite3', '@napi-rs/keyring', '@jellybrick/dbus-next', 'zod', 'commander', 'i18next', 'httpsnippet-lite'])
        expect(names.has(name), name).toBe(true);
      const unwanted = [...names].filter(
        (name) =>
          /^(react|react-dom|antd|echarts|zrender|typescript|csstype|yargs|chalk|event-stream|httpsnippet|keytar)$/.test(name) ||
          name.startsWith('@types/') ||
          name.startsWith('@ant-design/') ||
          name.startsWith('@rc-component/') ||
          name.startsWith('@tanstack/'),
      );
      expect(unwanted).toEqual([]);
    });

    it('carries only Node-API binaries, which load in Node and in Electron alike: nothing is rebuilt for Electron', () => {
      const binaries = packed.flatMap((m) => nodeFiles(join(ROOT, m.dir)));
      // better-sqlite3 (one per platform) and this platform's @napi-rs/keyring.
      expect(binaries.some((file) => file.endsWith(join('better-sqlite3', 'prebuilds', `${process.platform}-${process.arch}.node`)))).toBe(true);
      expect(binaries.some((file) => /keyring\.[^/\\]*\.node$/.test(file))).toBe(true);
      for (const file of binaries) {
        const bytes = readFileSync(file);
        // A Node-API addon registers through napi_register_module_v1; one bound to a runtime's V8 ABI
        // through node_register_module_v<ABI>, and would need an Electron build of its own.
        expect(bytes.includes('napi_register_module_v1'), file).toBe(true);
        expect(bytes.includes('node_register_module_v'), file).toBe(false);
      }
    });

    it('the packed binaries are the ones this process loads (the CLI, callout ui and the tests run the app’s own files)', () => {
      const require = createRequire(join(ROOT, 'package.json'));
      const sqlite = require.resolve('better-sqlite3');
      const keyring = require.resolve('@napi-rs/keyring');
      const dirs = packed.map((m) => join(ROOT, m.dir));
      expect(dirs.some((dir) => sqlite.startsWith(dir + sep))).toBe(true);
      expect(dirs.some((dir) => keyring.startsWith(dir + sep))).toBe(true);
      const Database = require('better-sqlite3') as new (file: string) => { prepare(sql: string): { get(): unknown }; close(): void };
      const db = new Database(':memory:');
      expect(db.prepare('select 1 + 1 as two').get()).toEqual({ two: 2 });
      db.close();
    });

    it('is a fraction of what it was (199 MB in 213 packages before the renderer’s packages moved; 38 MB now)', () => {
      const megabytes = packed.reduce((sum, m) => sum + m.bytes, 0) / 1048576;
      expect(megabytes).toBeLessThan(45);
    });
  });
});
