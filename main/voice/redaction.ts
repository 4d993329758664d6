import type { Exchange, Header } from '../../common/records';

export const REDACTED = '[REDACTED]';

/** Fields that carry the API Key in the provider's request parameters. */
const SECRET_FIELDS: ReadonlySet<string> = new Set(['password']);

/**
 * Removes secrets from a captured exchange before anything else sees it: the API Key wherever it
 * appears and however it is written (see keyPattern and base64Cores), the `password` field of JSON,
 * form, query, multipart and XML bodies (its name read as the server would, `pass%77ord` too), and
 * the signature of an Authorization header.
 */
export class Redactor {
  private readonly needles: string[];
  /** The key written any way a text can carry it, one character at a time. */
  private readonly patterns: RegExp[];
  /** The characters of the key's base64 that do not depend on what surrounds it, for each alignment. */
  private readonly cores: RegExp[];
  /** The names of the fields that carry a key (`password`, and the dialect's own), lower case. */
  private readonly names: ReadonlySet<string>;
  /** Headers that carry a key (a dialect's `X-Api-Key`), lower case: their whole value goes. */
  private readonly keyHeaders: ReadonlySet<string>;

  /**
   * `fields`: more names of fields that carry a key (a dialect's), redacted whatever their value;
   * `headers`: headers that carry one. What a request holds under them goes even when it is not a
   * key this Redactor was told (a wrong key is still someone's key).
   */
  constructor(secrets: readonly string[], carriers: { fields?: readonly (string | null)[]; headers?: readonly (string | null)[] } = {}) {
    this.names = new Set([...SECRET_FIELDS, ...(carriers.fields ?? []).filter((f): f is string => !!f).map((f) => f.toLowerCase())]);
    this.keyHeaders = new Set((carriers.headers ?? []).filter((h): h is string => !!h).map((h) => h.toLowerCase()));
    const forms = new Set<string>();
    const patterns: RegExp[] = [];
    const cores: RegExp[] = [];
    for (const s of secrets) {
      if (!s) continue;
      forms.add(s);
      forms.add(JSON.stringify(s).slice(1, -1));
      forms.add(encodeURIComponent(s));
      forms.add(new URLSearchParams({ k: s }).toString().slice(2));
      // As the URL parser writes it into a path or a query (neither of the forms above for ' { } and others).
      // Encoding only lengthens a text: a shorter form means the parser cut or normalised it (#, ..), and is no form of the key.
      for (const form of [new URL(`http://x/${s}`).pathname.slice(1), new URL(`http://x/?${s}`).search.slice(1)]) if (form.length >= s.length) forms.add(form);
      patterns.push(keyPattern(s));
      for (const core of base64Cores(s)) cores.push(new RegExp([...core].map(base64CharForms).join(''), 'g'));
    }
    // Longest first, so that a form containing another is replaced whole.
    this.needles = [...forms].filter((f) => f.length > 0).sort((a, b) => b.length - a.length);
    this.patterns = patterns.sort((a, b) => b.source.length - a.source.length);
    this.cores = cores;
  }

  text(value: string): string;
  text(value: string | null): string | null;
  text(value: string | null): string | null {
    return value === null ? null : this.replace(value, REDACTED);
  }

  /** A URL without the `password` of its query, and without the key (the placeholder percent-encoded: the URL stays one). */
  url(value: string): string {
    return this.replace(redactQueryFields(value, this.names), encodeURIComponent(REDACTED));
  }

  /** A text (a URL, or one that quotes one) without the values of its query's key fields. */
  queryFields(value: string): string {
    return redactQueryFields(value, this.names);
  }

  private replace(value: string, placeholder: string): string {
    let out = value;
    for (const n of this.needles) if (out.includes(n)) out = out.split(n).join(placeholder);
    for (const p of this.patterns) out = out.replace(p, placeholder);
    for (const core of this.cores) out = redactBase64(out, core, placeholder);
    return out;
  }

  /**
   * A body without its secrets: the `password` fields of JSON (at any depth), forms, multipart and
   * XML, then the key wherever it still appears. The rest of the body keeps its bytes (spacing, escapes, order):
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
      const byShape = () => {
        let text = body;
        for (const name of this.names) {
          const [whole, cut] = jsonSecretPatterns(name);
          text = text.replace(whole, `$1"${REDACTED}"`).replace(cut, `$1"${REDACTED}`);
        }
        return text;
      };
      try {
        if (parsed === undefined) {
          out = byShape();
        } else if (redactFields(parsed, this.names)) {
          // In place when that leaves no password behind (a key written with escapes, "pass\u0077ord", is not found by shape).
          const inPlace = byShape();
          out = hasSecretValue(inPlace, this.names) ? JSON.stringify(parsed) : inPlace;
        }
      } catch {
        // Nested too deep to write out again: the values found by their shape go, and the key below.
        out = byShape();
      }
    } else if (type.includes('multipart/') || /^--[^\r\n]+\r?\n[^\r\n]*content-disposition/i.test(body)) {
      out = redactMultipart(body, contentType ?? '', this.names);
    } else if (type.includes('xml') || /^\s*</.test(body)) {
      out = redactXml(body, this.names);
    } else {
      out = body.replace(FORM_FIELD, (pair, sep: string, name: string) =>
        isSecretName(decodeName(name), this.names) ? `${sep}${name}=${encodeURIComponent(REDACTED)}` : pair,
      );
    }
    return this.text(out);
  }

  headers(headers: Header[]): Header[] {
    return headers.map(([name, value]) => [this.text(name), this.header(name, value)]);
  }

  header(name: string, value: string): string {
    const lower = name.toLowerCase();
    if (this.keyHeaders.has(lower)) return value === '' ? value : REDACTED;
    if (lower === 'authorization' || lower === 'proxy-authorization') return redactAuthorization(this.text(value));
    return this.text(value);
  }

  exchange(e: Exchange): Exchange {
    const reqType = e.requestHeaders.find(([n]) => n.toLowerCase() === 'content-type')?.[1];
    const resType = e.responseHeaders?.find(([n]) => n.toLowerCase() === 'content-type')?.[1];
    return {
      ...e,
      url: this.url(e.url),
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

/**
 * A `"password": value` pair in JSON text (or another secret field's): its string (escapes included)
 * or number value; and such a string cut off by the end of the text (a body kept only up to a size).
 */
function jsonSecretPatterns(name: string): [RegExp, RegExp] {
  const quoted = `("${escapeRegExp(name)}"\\s*:\\s*)`;
  return [new RegExp(`${quoted}("(?:[^"\\\\]|\\\\.)*"|-?\\d[\\d.eE+-]*)`, 'gi'), new RegExp(`${quoted}"(?:[^"\\\\]|\\\\.)*$`, 'i')];
}
/** A form field (name=value between & separators). */
const FORM_FIELD = /(^|&)([^&=]*)=([^&]*)/g;
/** A query's field in a URL or in a text that quotes one. */
const QUERY_FIELD = /([?&])([^&=#?\s]*)=([^&#]*)/g;

/** A field's name as a server reads it: `+` a space, percent escapes decoded (a broken one left as it is). */
function decodeName(name: string): string {
  const plus = name.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(plus);
  } catch {
    return plus.replace(/%([0-7][0-9a-f])/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
}

/** `password` in any case, also as the last part of a nested name (`data[password]`, `data.password`). */
function isSecretName(name: string, names: ReadonlySet<string> = SECRET_FIELDS): boolean {
  const lower = name.trim().toLowerCase();
  const last = /(?:\[([^\]]*)\]|\.([^.[\]]*))$/.exec(lower);
  return names.has(lower) || (last !== null && names.has(last[1] ?? last[2] ?? ''));
}

/** The `password` fields of the query of a URL (or of URLs quoted in a text) without their value. */
export function redactQueryFields(text: string, names: ReadonlySet<string> = SECRET_FIELDS): string {
  if (!text.includes('=')) return text;
  return text.replace(QUERY_FIELD, (pair, sep: string, name: string) =>
    isSecretName(decodeName(name), names) ? `${sep}${name}=${encodeURIComponent(REDACTED)}` : pair,
  );
}

/**
 * A multipart body whose `password` parts (by their Content-Disposition name, quoted, RFC 2231
 * `name*=` or percent-encoded) hold the placeholder instead of their content. A part cut off by the
 * end of the kept bytes loses all of its content.
 */
function redactMultipart(body: string, contentType: string, names: ReadonlySet<string>): string {
  const boundary = /boundary\s*=\s*(?:"([^"]+)"|([^;\s]+))/i.exec(contentType)?.slice(1).find(Boolean) ?? /^--([^\r\n]+)\r?\n/.exec(body)?.[1];
  if (!boundary) return body;
  const delimiter = `--${boundary}`;
  const pieces = body.split(delimiter);
  for (let i = 1; i < pieces.length; i++) {
    const piece = pieces[i]!;
    const end = /\r?\n\r?\n/.exec(piece);
    const head = end ? piece.slice(0, end.index) : piece;
    const name = partName(head);
    if (name === null || !isSecretName(name, names)) continue;
    if (!end) {
      // Cut inside the part's headers: nothing of its content was kept.
      continue;
    }
    const start = end.index + end[0].length;
    const trailing = i < pieces.length - 1 ? (/\r?\n$/.exec(piece)?.[0] ?? '') : '';
    pieces[i] = `${piece.slice(0, start)}${REDACTED}${trailing}`;
  }
  return pieces.join(delimiter);
}

/** The name of a multipart part, from its Content-Disposition header, decoded; null when it has none. */
function partName(head: string): string | null {
  const disposition = /(?:^|\n)\s*content-disposition\s*:([^\r\n]*)/i.exec(head)?.[1];
  if (disposition === undefined) return null;
  const extended = /;\s*name\*\s*=\s*([^;]*)/i.exec(disposition);
  if (extended) return decodeName(extended[1]!.trim().replace(/^[^']*'[^']*'/, ''));
  const plain = /;\s*name\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]*))/i.exec(disposition);
  if (!plain) return null;
  return decodeName(plain[1] !== undefined ? plain[1].replace(/\\(.)/g, '$1') : (plain[2] ?? ''));
}

/**
 * An XML `password` element, or another secret field's (any namespace prefix; cut off by the end of the text too). Its start tag ends
 * before the next `<` (none in a tag): no scan runs to the end for each `<password`. And such an attribute.
 */
function redactXml(body: string, names: ReadonlySet<string>): string {
  let out = body;
  for (const name of names) {
    const n = escapeRegExp(name);
    const element = new RegExp(`(<(?:[\\w.-]+:)?${n}(?:\\s[^<]*?)?(?<!\\/)>)([\\s\\S]*?)(<\\/(?:[\\w.-]+:)?${n}\\s*>|$)`, 'gi');
    const attribute = new RegExp(`(\\s${n}\\s*=\\s*)("[^"]*"|'[^']*')`, 'gi');
    out = out.replace(element, `$1${REDACTED}$3`).replace(attribute, `$1"${REDACTED}"`);
  }
  return out;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** A number in hexadecimal as a pattern: either case of each letter, at least `width` digits (leading zeros allowed). */
function hexPattern(n: number, width: number): string {
  const digits = [...n.toString(16).padStart(width, '0')].map((d) => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d)).join('');
  return digits;
}

/** The backslash of a JSON escape as a pattern: one, or three, five… (a JSON text inside a JSON string escapes it again). */
const ESCAPE = '\\\\(?:\\\\\\\\)*';
/** The JSON escapes of one character other than \u, as patterns (a backslash is itself: one or more). */
const JSON_SHORT: Record<string, string> = {
  '"': `${ESCAPE}"`,
  '\\': '\\\\+',
  '/': `${ESCAPE}/`,
  '\b': `${ESCAPE}b`,
  '\f': `${ESCAPE}f`,
  '\n': `${ESCAPE}n`,
  '\r': `${ESCAPE}r`,
  '\t': `${ESCAPE}t`,
};
const XML_NAMED: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/**
 * Every way one character of the key can be written in a text that carries it, as a pattern: itself,
 * percent-encoded UTF-8 in either case (what encodeURIComponent, Python's quote_plus and PHP write),
 * `+` for a space, a JSON escape (`\u00e9` in either case, `\"`, `\/`, escaped again in JSON inside JSON), an XML
 * character reference.
 */
function charForms(ch: string): string {
  const forms = [escapeRegExp(ch)];
  forms.push([...Buffer.from(ch, 'utf8')].map((b) => `%${hexPattern(b, 2)}`).join(''));
  if (ch === ' ') forms.push('\\+');
  const units: string[] = [];
  for (let i = 0; i < ch.length; i++) units.push(`${ESCAPE}u${hexPattern(ch.charCodeAt(i), 4)}`);
  forms.push(units.join(''));
  if (JSON_SHORT[ch]) forms.push(JSON_SHORT[ch]);
  if (XML_NAMED[ch]) forms.push(escapeRegExp(XML_NAMED[ch]));
  const code = ch.codePointAt(0)!;
  forms.push(`&#0*${code};`, `&#[xX]0*${code.toString(16).replace(/[a-f]/g, (d) => `[${d}${d.toUpperCase()}]`)};`);
  return `(?:${forms.join('|')})`;
}

/** The key with each character in any of its forms (a key written half one way, half another is found too). */
function keyPattern(key: string): RegExp {
  return new RegExp([...key].map(charForms).join(''), 'g');
}

/** A base64 character in base64 or base64url, itself or escaped as JSON or a URL would write it. */
function base64CharForms(ch: string): string {
  if (ch === '+') return `(?:${charForms('+')}|-)`;
  if (ch === '/') return `(?:${charForms('/')}|_)`;
  return charForms(ch);
}

/** Base64 needs this many characters of the key before a match says anything (shorter cores would match ordinary text). */
const MIN_BASE64_CORE = 8;

/**
 * The key inside base64 (alone, or inside a longer value such as Basic's `account:key`): for each of
 * the three alignments of its first byte, the base64 characters made only of the key's bits.
 */
function base64Cores(key: string): string[] {
  const bytes = Buffer.from(key, 'utf8');
  const out: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const b64 = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const core = b64.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
    if (core.length >= MIN_BASE64_CORE) out.push(core);
  }
  return out;
}

/** A base64 token's characters, as written in a text (base64url, and + / = percent-encoded or `\/`). */
const B64_CHAR = /[A-Za-z0-9+/_-]/;

/** The text with every base64 token holding `core` replaced, whole, by the placeholder. */
function redactBase64(text: string, core: RegExp, placeholder: string): string {
  core.lastIndex = 0;
  if (!core.test(text)) return text;
  core.lastIndex = 0;
  let out = '';
  let from = 0;
  for (let m = core.exec(text); m !== null; m = core.exec(text)) {
    let start = m.index;
    for (;;) {
      if (start > from && B64_CHAR.test(text[start - 1]!)) start--;
      else if (start - 3 >= from && /^%2[bf]$/i.test(text.slice(start - 3, start))) start -= 3;
      else if (start - 2 >= from && text.slice(start - 2, start) === '\\/') start -= 2;
      else break;
    }
    let end = m.index + m[0].length;
    for (;;) {
      if (end < text.length && /[A-Za-z0-9+/_=-]/.test(text[end]!)) end++;
      else if (/^%(?:2[bf]|3d)$/i.test(text.slice(end, end + 3))) end += 3;
      else if (text.slice(end, end + 2) === '\\/') end += 2;
      else break;
    }
    out += text.slice(from, start) + placeholder;
    from = end;
    core.lastIndex = end;
  }
  return out + text.slice(from);
}

/**
 * Replaces the value of every `password` field (any case; a string or a number) by the placeholder;
 * true when one was found. Walks with a stack of its own: a body nested thousands deep is no
 * reason to lose the exchange.
 */
function redactFields(value: unknown, names: ReadonlySet<string> = SECRET_FIELDS): boolean {
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
      if (names.has(key.toLowerCase()) && (typeof x === 'string' || typeof x === 'number')) {
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
function hasSecretValue(text: string, names: ReadonlySet<string>): boolean {
  try {
    return redactFields(JSON.parse(text), names);
  } catch {
    return true;
  }
}
