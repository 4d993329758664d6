// The preload runs sandboxed: it cannot require() packages, so everything it needs is bundled into
// out/preload/index.js. It must stay small and zod-free: it builds window.callout from the channel
// names alone (common/contract/channels.ts) with the API builder (common/api.ts), never from the
// zod contract. Checked on the sources (always) and on the built bundle (when it has been built).
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(__dirname, '../../..');
const BUNDLE = resolve(ROOT, 'out/preload/index.js');
const MAX_BUNDLE_BYTES = 10 * 1024;

/**
 * The modules a source file loads at run time, as written: `import ... from`, side-effect
 * `import '...'`, `export ... from`, `import x = require()`, `require()` and `import()`. Only a
 * whole-statement `import type` / `export type ... from` is left out: it is erased at build time.
 * (`import { type X }` counts: whether it is erased depends on the compiler settings.)
 */
function importsOf(text: string, fileName = 'source.ts'): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      if (!node.importClause?.isTypeOnly) found.push((node.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(node)) {
      if (node.moduleSpecifier && !node.isTypeOnly) found.push((node.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isImportEqualsDeclaration(node)) {
      if (!node.isTypeOnly && ts.isExternalModuleReference(node.moduleReference)) found.push((node.moduleReference.expression as ts.StringLiteral).text);
    } else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const loads = callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === 'require');
      if (loads) {
        const [arg] = node.arguments;
        found.push(arg && ts.isStringLiteralLike(arg) ? arg.text : `<computed: ${arg?.getText(source) ?? ''}>`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const runtimeImports = (relativePath: string): string[] => importsOf(readFileSync(resolve(ROOT, relativePath), 'utf8'), relativePath);

describe('the preload imports only zod-free modules', () => {
  it('(the import parser sees every kind of run-time import, and skips type-only ones)', () => {
    // So that the assertions below cannot pass by missing an import.
    const text = `
      import a from 'a';
      import { b, type B } from 'b';
      import type { C } from 'c';
      import 'd';
      export { e } from 'e';
      export * from 'f';
      export type { G } from 'g';
      import h = require('h');
      const i = require('i');
      const j = await import('j');
      // import k from 'k';
      const l = 'require("l")';
    `;
    expect(importsOf(text)).toEqual(['a', 'b', 'd', 'e', 'f', 'h', 'i', 'j']);
  });

  it('preload/index.ts imports electron, the API builder and the channel names, nothing else', () => {
    expect(runtimeImports('preload/index.ts').sort()).toEqual(['../common/api', '../common/contract/channels', 'electron']);
  });

  it('common/api.ts and common/contract/channels.ts import nothing at run time', () => {
    expect(runtimeImports('common/api.ts')).toEqual([]);
    expect(runtimeImports('common/contract/channels.ts')).toEqual([]);
  });
});

describe('the built preload bundle', () => {
  it('does not contain zod and stays under 10 KB', (ctx) => {
    ctx.skip(!existsSync(BUNDLE), 'out/preload/index.js is absent: run `npx electron-vite build` to check the built bundle');
    const bundle = readFileSync(BUNDLE, 'utf8');
    // zod's code, bundled or required (its classes and its internal `_zod` field), not the word in a kept comment.
    const zodCode = /require\(["']zod|\$?Zod[A-Z]\w*|\b_zod\b/.exec(bundle);
    expect(zodCode?.[0] ?? null, 'out/preload/index.js carries zod (is the build up to date? npx electron-vite build)').toBeNull();
    expect(statSync(BUNDLE).size).toBeLessThan(MAX_BUNDLE_BYTES);
  });
});
