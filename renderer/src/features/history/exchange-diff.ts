// Two exchanges side by side: headers paired by name (ignoring case), and bodies compared line by
// line after putting both in one canonical form: JSON with its keys sorted and indented (so key
// order and spacing do not count as differences), XML indented, form fields one a line and sorted.
// The line diff is jsdiff's (the `diff` package); pairing its removed and added runs into rows is ours.
import { diffLines } from 'diff';
import type { Header } from '../../../../common/records';
import { bodyKind, prettyForm, prettyXml } from './body-format';

export type RowKind = 'same' | 'changed' | 'removed' | 'added';

export interface DiffRow {
  kind: RowKind;
  left: string | null;
  right: string | null;
}

export interface HeaderRow extends DiffRow {
  name: string;
}

/** Headers by name (first occurrence; case ignored), in the left's order then the right's new ones. */
export function diffHeaders(left: readonly Header[], right: readonly Header[]): HeaderRow[] {
  const map = (list: readonly Header[]) => {
    const m = new Map<string, { name: string; value: string }>();
    for (const [name, value] of list) {
      const key = name.toLowerCase();
      const had = m.get(key);
      m.set(key, had ? { name: had.name, value: `${had.value}, ${value}` } : { name, value });
    }
    return m;
  };
  const l = map(left);
  const r = map(right);
  const rows: HeaderRow[] = [];
  for (const [key, a] of l) {
    const b = r.get(key);
    rows.push({ name: a.name, left: a.value, right: b?.value ?? null, kind: !b ? 'removed' : a.value === b.value ? 'same' : 'changed' });
  }
  for (const [key, b] of r) if (!l.has(key)) rows.push({ name: b.name, left: null, right: b.value, kind: 'added' });
  return rows;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value as object)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** A body in the form that is compared: JSON-aware (sorted keys, indented), XML indented, form sorted; other text as it is. */
export function canonicalBody(body: string | null, contentType: string | undefined): string {
  if (body === null || body === '') return '';
  const kind = bodyKind(body, contentType);
  if (kind === 'json') {
    try {
      return JSON.stringify(sortKeys(JSON.parse(body)), null, 2);
    } catch {
      return body;
    }
  }
  if (kind === 'xml') return prettyXml(body) ?? body;
  if (kind === 'form') return prettyForm(body).split('\n').sort().join('\n');
  return body;
}

/** Line rows side by side: equal lines on both sides, a removed run next to the added run that follows it. */
export function diffText(left: string, right: string): DiffRow[] {
  const rows: DiffRow[] = [];
  // Every line ends with a line break, so that a last line without one is not a difference.
  const parts = diffLines(`${left}\n`, `${right}\n`);
  const lines = (value: string) => value.replace(/\n$/, '').split('\n');
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (!part.added && !part.removed) {
      for (const line of lines(part.value)) rows.push({ kind: 'same', left: line, right: line });
      continue;
    }
    if (part.removed) {
      const next = parts[i + 1];
      const gone = lines(part.value);
      const came = next?.added ? lines(next.value) : [];
      if (next?.added) i++;
      for (let j = 0; j < Math.max(gone.length, came.length); j++) {
        const a = gone[j] ?? null;
        const b = came[j] ?? null;
        rows.push({ kind: a !== null && b !== null ? 'changed' : a !== null ? 'removed' : 'added', left: a, right: b });
      }
      continue;
    }
    for (const line of lines(part.value)) rows.push({ kind: 'added', left: null, right: line });
  }
  return rows;
}
