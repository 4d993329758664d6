import type { Exchange, Header } from '../../common/records';

export const REDACTED = '[REDACTED]';

/** Fields that carry the API Key in the provider's request parameters. */
const SECRET_FIELDS = new Set(['password']);

/**
 * Removes secrets from a captured exchange before anything else sees it: the API Key wherever it
 * appears (raw, JSON-escaped or URL-encoded), the `password` field of JSON and form bodies, and
 * the signature of an Authorization header.
 */
export class Redactor {
  private readonly needles: string[];

  constructor(secrets: readonly string[]) {
    const forms = new Set<string>();
    for (const s of secrets) {
      if (!s) continue;
      forms.add(s);
      forms.add(JSON.stringify(s).slice(1, -1));
      forms.add(encodeURIComponent(s));
      forms.add(new URLSearchParams({ k: s }).toString().slice(2));
    }
    // Longest first, so that a form containing another is replaced whole.
    this.needles = [...forms].filter((f) => f.length > 0).sort((a, b) => b.length - a.length);
  }

  text(value: string): string;
  text(value: string | null): string | null;
  text(value: string | null): string | null {
    if (value === null) return null;
    let out = value;
    for (const n of this.needles) if (out.includes(n)) out = out.split(n).join(REDACTED);
    return out;
  }

  /**
   * A body without its secrets: the `password` fields of JSON (at any depth) and of forms, then the
   * key wherever it still appears. The rest of the body keeps its bytes (spacing, escapes, order):
   * the placeholder is put in place of each value. A JSON body that cannot be parsed (one cut
   * short at a size limit, or broken) still loses its password values, found by their shape.
   */
  body(body: string | null, contentType: string | undefined): string | null {
    if (body === null) return null;
    const type = (contentType ?? '').toLowerCase();
    let out = body;
    if ((type.includes('json') || /^\s*[{[]/.test(body)) && !type.includes('x-www-form-urlencoded')) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        parsed = undefined;
      }
      if (parsed === undefined) {
        out = body.replace(JSON_PASSWORD, `$1"${REDACTED}"`).replace(JSON_PASSWORD_CUT, `$1"${REDACTED}`);
      } else if (redactFields(parsed)) {
        // In place when that leaves no password behind (a key written with escapes, "pass\u0077ord", is not found by shape).
        const inPlace = body.replace(JSON_PASSWORD, `$1"${REDACTED}"`);
        out = hasSecretValue(inPlace) ? JSON.stringify(parsed) : inPlace;
      }
    } else {
      out = body.replace(FORM_PASSWORD, `$1$2=${encodeURIComponent(REDACTED)}`);
    }
    return this.text(out);
  }

  headers(headers: Header[]): Header[] {
    return headers.map(([name, value]) => [name, this.header(name, value)]);
  }

  header(name: string, value: string): string {
    if (name.toLowerCase() === 'authorization') return redactAuthorization(this.text(value));
    return this.text(value);
  }

  exchange(e: Exchange): Exchange {
    const reqType = e.requestHeaders.find(([n]) => n.toLowerCase() === 'content-type')?.[1];
    const resType = e.responseHeaders?.find(([n]) => n.toLowerCase() === 'content-type')?.[1];
    return {
      ...e,
      url: this.text(e.url),
      requestHeaders: this.headers(e.requestHeaders),
      requestBody: this.body(e.requestBody, reqType),
      responseHeaders: e.responseHeaders && this.headers(e.responseHeaders),
      responseBody: this.body(e.responseBody, resType),
      error: e.error && { ...e.error, message: this.text(e.error.message) },
    };
  }
}

export function redactAuthorization(value: string): string {
  return value.replace(/(signature\s*=\s*")[^"]*(")/i, `$1${REDACTED}$2`);
}

/** A `"password": value` pair in JSON text: its string (escapes included) or number value. */
const JSON_PASSWORD = /("password"\s*:\s*)("(?:[^"\\]|\\.)*"|-?\d[\d.eE+-]*)/g;
/** A password string cut off by the end of the text (a body kept only up to a size). */
const JSON_PASSWORD_CUT = /("password"\s*:\s*)"(?:[^"\\]|\\.)*$/;
/** A form's password field (name=value between & separators). */
const FORM_PASSWORD = /(^|&)(password)=([^&]*)/g;

/** Replaces the value of every `password` field (a string or a number) by the placeholder; true when one was found. */
function redactFields(value: unknown): boolean {
  if (Array.isArray(value)) return value.map(redactFields).some(Boolean);
  if (value === null || typeof value !== 'object') return false;
  let changed = false;
  const obj = value as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    if (SECRET_FIELDS.has(key) && (typeof obj[key] === 'string' || typeof obj[key] === 'number')) {
      if (obj[key] !== REDACTED) {
        obj[key] = REDACTED;
        changed = true;
      }
    } else if (redactFields(obj[key])) {
      changed = true;
    }
  }
  return changed;
}

/** True when JSON text still holds a password value other than the placeholder. */
function hasSecretValue(text: string): boolean {
  try {
    return redactFields(JSON.parse(text));
  } catch {
    return true;
  }
}
