// Reply dialects: the format (schema.ts), the built-in ones (builtin/*.json, shipped as data), how a
// dialect is checked (with a problem per field), and how replies are read with it (read.ts).
import type { ZodError } from 'zod';
import type { Issue } from '../contract/errors';
import specJson from './builtin/spec.json';
import voiceidPushJson from './builtin/voiceid-push.json';
import numericStatesJson from './builtin/numeric-states.json';
import digitStatesJson from './builtin/digit-states.json';
import ihuyiJson from './builtin/ihuyi.json';
import { dialectSchema, MAX_DIALECT_BYTES, type Dialect } from './schema';

export * from './schema';
export * from './read';
export * from './request';

/** The dialect a profile uses unless it says otherwise: the spec's reading. */
export const DEFAULT_DIALECT_ID = 'spec';

export type DialectCheck = { ok: true; dialect: Dialect } | { ok: false; issues: Issue[] };

/** Zod's problems as issues: the path into the dialect and a code (issue.dialect-*). */
function issuesOf(error: ZodError): Issue[] {
  return error.issues.slice(0, 50).map((i) => {
    const path = i.path.map(String).join('.');
    if (i.code === 'unrecognized_keys') return { path: [path, ...i.keys.slice(0, 1)].filter(Boolean).join('.'), message: 'dialect-unknown-field' };
    if (i.code === 'invalid_type' && i.input === undefined) return { path, message: 'dialect-missing' };
    // A key of a map that is not valid (a code with a space): the key's own problem.
    if (i.code === 'invalid_key') {
      const inner = i.issues[0]?.message ?? '';
      return { path, message: inner.startsWith('dialect-') ? inner : 'dialect-invalid' };
    }
    return { path, message: i.message.startsWith('dialect-') ? i.message : 'dialect-invalid' };
  });
}

/** Checks a dialect (an object from a file, a form or the teach flow). */
export function checkDialect(input: unknown): DialectCheck {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return { ok: false, issues: [{ path: '', message: 'dialect-not-object' }] };
  const r = dialectSchema.safeParse(input);
  return r.success ? { ok: true, dialect: r.data } : { ok: false, issues: issuesOf(r.error) };
}

/** Checks a dialect file's text: JSON, at most 256 KiB, then the schema. */
export function parseDialectText(text: string): DialectCheck {
  if (new TextEncoder().encode(text).length > MAX_DIALECT_BYTES) return { ok: false, issues: [{ path: '', message: 'dialect-too-large' }] };
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return { ok: false, issues: [{ path: '', message: 'dialect-not-json' }] };
  }
  return checkDialect(value);
}

function builtin(json: unknown): Dialect {
  const r = checkDialect(json);
  if (!r.ok) throw new Error(`A built-in dialect is not valid: ${JSON.stringify(r.issues)}`);
  return Object.freeze(r.dialect);
}

/** The built-in dialects, the default first. */
export const BUILTIN_DIALECTS: readonly Dialect[] = [specJson, voiceidPushJson, numericStatesJson, digitStatesJson, ihuyiJson].map(builtin);

export function builtinDialect(id: string): Dialect | undefined {
  return BUILTIN_DIALECTS.find((d) => d.id === id);
}

export const SPEC_DIALECT: Dialect = builtinDialect(DEFAULT_DIALECT_ID)!;

/** Whether a dialect is a built-in one unchanged (then a profile stores its id only). */
export function isBuiltinUnchanged(d: Dialect): boolean {
  const b = d.id === undefined ? undefined : builtinDialect(d.id);
  return b !== undefined && JSON.stringify(b) === JSON.stringify(d);
}
