// Each screen loads the texts of every feature whose words it shows: a component borrowed from
// another feature (the template chips on the Sandbox screen) must not show its raw message keys.
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FEATURES } from '../../../renderer/src/i18n/feature-texts';

const SRC = resolve(__dirname, '../../../renderer/src');
const screensFile = join(SRC, 'app/screens.tsx');

/** screen key, the features whose texts it loads, and its component's module. */
function screens(): { key: string; texts: string[]; module: string }[] {
  const text = readFileSync(screensFile, 'utf8');
  const re = /screen\(\s*'(\w+)',[^[]*\[([^\]]*)\],\s*\(\)\s*=>\s*import\('([^']+)'\)/g;
  return Array.from(text.matchAll(re), (m) => ({
    key: m[1]!,
    texts: Array.from(m[2]!.matchAll(/'(\w+)'/g), (x) => x[1]!),
    module: resolve(dirname(screensFile), m[3]!),
  }));
}

function fileOf(base: string): string | null {
  for (const ext of ['.tsx', '.ts', '/index.tsx', '/index.ts']) if (existsSync(base + ext)) return base + ext;
  return existsSync(base) && /\.tsx?$/.test(base) ? base : null;
}

/**
 * The features whose texts the components (.tsx) of the module and of what it imports statically
 * (within features/) say. Pure modules (.ts) are followed but not read for texts: a screen may borrow
 * one function of another feature's model without showing any of its words.
 */
function featuresSaid(entry: string): Map<string, string> {
  const said = new Map<string, string>();
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length) {
    const file = fileOf(queue.pop()!);
    if (!file || seen.has(file)) continue;
    seen.add(file);
    const src = readFileSync(file, 'utf8');
    // A text of the message catalog (`{ ns: 'msg' }`, keyed by the feature that owns it) comes with
    // the catalog, not with that feature's texts.
    if (file.endsWith('.tsx'))
      for (const m of src.matchAll(/\bt\(\s*(['"`])(\w+)\.([^'"`]*\1\s*,\s*\{\s*ns:\s*'msg')?/g))
        if (!m[3] && (FEATURES as readonly string[]).includes(m[2]!) && !said.has(m[2]!)) said.set(m[2]!, file.slice(SRC.length + 1));
    for (const m of src.matchAll(/^import\s+(?!type\b)[^;]*?from\s+'(\.[^']+)'/gm)) {
      const target = resolve(dirname(file), m[1]!);
      if (target.startsWith(join(SRC, 'features'))) queue.push(target);
    }
  }
  return said;
}

describe('the texts each screen loads', () => {
  it('finds the screens', () => {
    expect(screens().map((s) => s.key)).toEqual(expect.arrayContaining(['send', 'sandbox', 'history', 'templates']));
  });

  it.each(screens())('the $key screen loads the texts of every feature it says', ({ texts, module }) => {
    const missing = Array.from(featuresSaid(module)).filter(([feature]) => !texts.includes(feature));
    expect(missing, 'feature texts said but not loaded, with where').toEqual([]);
  });
});
