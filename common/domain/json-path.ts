// A path into a parsed reply (JSON, or XML as parsed): the "simple assertions" of saved requests and
// the captures that keep a value for the next request. Deliberately small: names and indexes only,
// no filters or wildcards (RFC 9535 JSONPath's normalized paths, with the `$.` optional):
//   code   $.code   data.list[0].state   $["a b"]   $['x'][2]

export type PathStep = string | number;

/** The steps of a path, or null when it is not one. */
export function parseJsonPath(path: string): PathStep[] | null {
  let s = path.trim();
  if (s === '$') return [];
  if (s.startsWith('$')) s = s.slice(1);
  else if (s !== '' && !s.startsWith('[')) s = `.${s}`;
  const steps: PathStep[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (c === '.') {
      const m = /^[^.[\]\s"']+/.exec(s.slice(i + 1));
      if (!m) return null;
      steps.push(m[0]);
      i += 1 + m[0].length;
    } else if (c === '[') {
      const rest = s.slice(i + 1);
      const index = /^\s*(\d+)\s*\]/.exec(rest);
      const quoted = /^\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')\s*\]/.exec(rest);
      if (index) {
        steps.push(Number(index[1]));
        i += 1 + index[0].length;
      } else if (quoted) {
        steps.push((quoted[1] ?? quoted[2] ?? '').replace(/\\(.)/g, '$1'));
        i += 1 + quoted[0].length;
      } else return null;
    } else return null;
  }
  return steps.length || path.trim() === '$' ? steps : null;
}

/** The value at a path, or `{ found: false }`. An index also reads a one-element list's item as the value (XML). */
export function readJsonPath(value: unknown, steps: readonly PathStep[]): { found: true; value: unknown } | { found: false } {
  let cur: unknown = value;
  for (const step of steps) {
    if (typeof step === 'number') {
      if (!Array.isArray(cur) || step >= cur.length) return { found: false };
      cur = cur[step];
    } else {
      if (cur === null || typeof cur !== 'object' || Array.isArray(cur) || !Object.prototype.hasOwnProperty.call(cur, step)) return { found: false };
      cur = (cur as Record<string, unknown>)[step];
    }
  }
  return { found: true, value: cur };
}

/**
 * Whether a value found in a reply equals what an assertion expects, written as text: a JSON
 * literal (2, "2", true, null, {"a":1}) compares as that value; a text that is not JSON compares
 * as text. A number and its digits as text are equal (XML replies carry every value as text).
 */
export function valueEquals(actual: unknown, expected: string): boolean {
  let parsed: unknown;
  let isJson = true;
  try {
    parsed = JSON.parse(expected);
  } catch {
    isJson = false;
  }
  if (isJson && deepEqual(actual, parsed)) return true;
  if (typeof actual === 'string') return actual === expected || (isJson && typeof parsed === 'string' && actual === parsed);
  if (typeof actual === 'number' || typeof actual === 'boolean') return String(actual) === expected.trim();
  return false;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'number' && typeof b === 'string') return String(a) === b;
  if (typeof a === 'string' && typeof b === 'number') return a.trim() === String(b);
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  return (
    ka.length === kb.length &&
    ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

/** A found value as a tester reads it: JSON. */
export function showValue(value: unknown): string {
  const s = JSON.stringify(value);
  return s === undefined ? String(value) : s;
}
