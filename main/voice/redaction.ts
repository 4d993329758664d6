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

  body(body: string | null, contentType: string | undefined): string | null {
    if (body === null) return null;
    const type = (contentType ?? '').toLowerCase();
    let out = body;
    if (type.includes('json') || /^\s*[{[]/.test(body)) {
      try {
        // Only the values are replaced, in the text as it is: the rest stays byte for byte.
        if (redactFields(JSON.parse(body))) out = redactJsonText(body);
      } catch {
        // not JSON after all: fall through to text redaction
      }
    } else if (type.includes('x-www-form-urlencoded')) {
      const params = new URLSearchParams(body);
      let changed = false;
      for (const key of [...params.keys()]) {
        if (SECRET_FIELDS.has(key)) {
          params.set(key, REDACTED);
          changed = true;
        }
      }
      if (changed) out = params.toString();
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

/** `"password": "<value>"` wherever it is in a JSON text: the value becomes the placeholder. */
function redactJsonText(text: string): string {
  let out = text;
  for (const field of SECRET_FIELDS) {
    out = out.replace(new RegExp(`("${field}"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, 'g'), `$1"${REDACTED}"`);
  }
  return out;
}

function redactFields(value: unknown): boolean {
  if (Array.isArray(value)) return value.map(redactFields).some(Boolean);
  if (value === null || typeof value !== 'object') return false;
  let changed = false;
  const obj = value as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    if (SECRET_FIELDS.has(key) && typeof obj[key] === 'string') {
      obj[key] = REDACTED;
      changed = true;
    } else if (redactFields(obj[key])) {
      changed = true;
    }
  }
  return changed;
}
