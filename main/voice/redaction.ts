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
      // As the URL parser writes it into a path or a query (neither of the forms above for ' { } and others).
      // Encoding only lengthens a text: a shorter form means the parser cut or normalised it (#, ..), and is no form of the key.
      for (const form of [new URL(`http://x/${s}`).pathname.slice(1), new URL(`http://x/?${s}`).search.slice(1)]) if (form.length >= s.length) forms.add(form);
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
      const byShape = () => body.replace(JSON_PASSWORD, `$1"${REDACTED}"`).replace(JSON_PASSWORD_CUT, `$1"${REDACTED}`);
      try {
        if (parsed === undefined) {
          out = byShape();
        } else if (redactFields(parsed)) {
          // In place when that leaves no password behind (a key written with escapes, "pass\u0077ord", is not found by shape).
          const inPlace = byShape();
          out = hasSecretValue(inPlace) ? JSON.stringify(parsed) : inPlace;
        }
      } catch {
        // Nested too deep to write out again: the values found by their shape go, and the key below.
        out = byShape();
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
    const lower = name.toLowerCase();
    if (lower === 'authorization' || lower === 'proxy-authorization') return redactAuthorization(this.text(value));
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

/**
 * An Authorization value without its secret: the signature of the spec's Signature scheme (its
 * keyId, algorithm and headers stay, for the workbench); any other scheme (Basic carries the key in
 * base64, Bearer a token) keeps only the scheme's name.
 */
export function redactAuthorization(value: string): string {
  if (/signature\s*=\s*"/i.test(value)) return value.replace(/(signature\s*=\s*")[^"]*(")/i, `$1${REDACTED}$2`);
  const scheme = /^\s*([A-Za-z][\w.+-]*)\s+\S/.exec(value);
  if (scheme) return `${scheme[1]} ${REDACTED}`;
  return value.trim() === '' || value === REDACTED ? value : REDACTED;
}

/** A `"password": value` pair in JSON text: its string (escapes included) or number value. */
const JSON_PASSWORD = /("password"\s*:\s*)("(?:[^"\\]|\\.)*"|-?\d[\d.eE+-]*)/gi;
/** A password string cut off by the end of the text (a body kept only up to a size). */
const JSON_PASSWORD_CUT = /("password"\s*:\s*)"(?:[^"\\]|\\.)*$/i;
/** A form's password field (name=value between & separators). */
const FORM_PASSWORD = /(^|&)(password)=([^&]*)/gi;

/**
 * Replaces the value of every `password` field (any case; a string or a number) by the placeholder;
 * true when one was found. Walks with a stack of its own: a body nested thousands deep is no
 * reason to lose the exchange.
 */
function redactFields(value: unknown): boolean {
  let changed = false;
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      for (const x of v) stack.push(x);
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    const obj = v as Record<string, unknown>;
    for (const key of Object.keys(obj)) {
      const x = obj[key];
      if (SECRET_FIELDS.has(key.toLowerCase()) && (typeof x === 'string' || typeof x === 'number')) {
        if (x !== REDACTED) {
          obj[key] = REDACTED;
          changed = true;
        }
      } else stack.push(x);
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
