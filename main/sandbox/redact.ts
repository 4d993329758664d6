/** Keeps API Keys out of everything the sandbox shows about the requests it received. */
import { Redactor } from '../voice/redaction';

export const REDACTED = '[REDACTED]';

/** Keys shorter than this are only redacted when a whole value equals them (else '1' would blank everything). */
const MIN_SUBSTRING_KEY = 6;

function scrubString(s: string, keys: readonly string[]): string {
  let out = s;
  for (const k of keys) {
    if (k === '') continue;
    if (out === k) return REDACTED;
    if (k.length >= MIN_SUBSTRING_KEY && out.includes(k)) out = out.split(k).join(REDACTED);
  }
  return out;
}

/** Deeper than this, an object or array is not copied but shown as '[REDACTED]' (it could hold the key or a password). */
const MAX_DEPTH = 20;

/** The fields that carry a key when the dialect names none of its own. */
const PASSWORD: readonly string[] = ['password'];

function scrub(value: unknown, keys: readonly string[], depth: number, fields: readonly string[] = PASSWORD): unknown {
  if (typeof value === 'string') return scrubString(value, keys);
  if (typeof value !== 'object' || value === null) return value;
  if (depth > MAX_DEPTH) return REDACTED;
  if (Array.isArray(value)) return value.map((v) => scrub(v, keys, depth + 1, fields));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    // A field's name is redacted too: `{ "<key>": 1 }` must not show the key.
    out[scrubString(k, keys)] = fields.includes(k) ? REDACTED : scrub(v, keys, depth + 1, fields);
  }
  return out;
}

/**
 * A copy of the parameters with `password` (at any depth; or the fields the dialect puts a key in)
 * and every known key replaced by '[REDACTED]'.
 */
export function redactParams(params: Record<string, unknown>, keys: readonly string[], fields: readonly string[] = PASSWORD): Record<string, unknown> {
  return scrub(params, keys, 0, fields) as Record<string, unknown>;
}

/** The path part of a URL with any known key redacted, also when it was percent-encoded (then it is shown decoded). */
function scrubPathPart(part: string, keys: readonly string[]): string {
  const scrubbed = scrubString(part, keys);
  let decoded: string;
  try {
    decoded = decodeURIComponent(scrubbed);
  } catch {
    return scrubbed;
  }
  const again = scrubString(decoded, keys);
  return again === decoded ? scrubbed : again;
}

/** The request path with a `password` query parameter and any known key (in the path, a parameter's name or value) redacted. */
export function redactPath(path: string, keys: readonly string[], fields: readonly string[] = PASSWORD): string {
  const q = path.indexOf('?');
  if (q < 0) return scrubPathPart(path, keys);
  const out = new URLSearchParams();
  for (const [k, v] of new URLSearchParams(path.slice(q + 1))) out.append(scrubString(k, keys), fields.includes(k) ? REDACTED : scrubString(v, keys));
  return scrubPathPart(path.slice(0, q), keys) + '?' + out.toString();
}

/**
 * A body's text with the values of its key fields (`password`, or the dialect's: whatever they hold,
 * a wrong key too) and every known key redacted, as written and as a form or a URL writes it.
 */
export function redactBodyText(text: string, contentType: string | undefined, keys: readonly string[], fields: readonly string[] = PASSWORD): string {
  const byName = new Redactor([], { fields }).body(text, contentType) ?? text;
  return redactText(byName.split(encodeURIComponent(REDACTED)).join(REDACTED), keys);
}

/** A body's text with every known key redacted, as written and as a form or a URL writes it. */
export function redactText(text: string, keys: readonly string[]): string {
  const forms = keys
    .filter((k) => k.length > 0)
    .flatMap((k) => [k, encodeURIComponent(k), new URLSearchParams({ k }).toString().slice(2), JSON.stringify(k).slice(1, -1)]);
  let out = text;
  for (const f of [...new Set(forms)].sort((a, b) => b.length - a.length)) if (f.length >= MIN_SUBSTRING_KEY || out === f) out = out.split(f).join(REDACTED);
  return out;
}

/** A deep copy of `value` with every known key replaced by '[REDACTED]' (and `password` fields blanked). */
export function redactDeep<T>(value: T, keys: readonly string[]): T {
  return scrub(value, keys, 0) as T;
}
