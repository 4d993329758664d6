// Pretty views of exchange bodies, written simply: JSON through JSON.parse/stringify, XML with a
// small indenter that keeps every tag as written (a quoted attribute value may hold `>`) and gives
// up (null) on anything it cannot read whole or that is not well nested, form bodies one field a
// line as the platform's URLSearchParams reads them. The raw view always shows the stored text byte
// for byte.
import type { Header } from '../../../../common/records';

export type BodyKind = 'json' | 'xml' | 'html' | 'form' | 'text';

/** The placeholder main writes where a secret was (API Key, signature). */
export const REDACTED = '[REDACTED]';

export function headerValue(headers: readonly Header[] | null, name: string): string | undefined {
  const lower = name.toLowerCase();
  return headers?.find(([n]) => n.toLowerCase() === lower)?.[1];
}

/** What a body is, from its Content-Type, else from its first character. */
export function bodyKind(body: string, contentType: string | undefined): BodyKind {
  const type = (contentType ?? '').toLowerCase();
  const start = body.trimStart();
  if (type.includes('html') || /^<!doctype html|^<html[\s>]/i.test(start)) return 'html';
  if (type.includes('json')) return 'json';
  if (type.includes('xml')) return 'xml';
  if (type.includes('x-www-form-urlencoded')) return 'form';
  if (/^[{[]/.test(start)) return 'json';
  if (start.startsWith('<')) return 'xml';
  return 'text';
}

export function prettyJson(text: string): string | null {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return null;
  }
}

// CDATA, comments and processing instructions whole; a tag up to its first `>` outside quotes; text.
const TOKENS = /<!\[CDATA\[[\s\S]*?\]\]>|<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<(?:[^>"']|"[^"]*"|'[^']*')+>|[^<]+/g;

/** Indents XML two spaces a level; a leaf's text stays on its tag's line. Null when the tags do not nest. */
export function prettyXml(xml: string): string | null {
  const src = xml.trim();
  if (!src.startsWith('<')) return null;
  const tokens = src.match(TOKENS);
  // Every character must belong to a token: an unterminated tag or quote is not shown half-read.
  if (!tokens || tokens.join('') !== src) return null;
  const lines: string[] = [];
  const open: string[] = [];
  const indent = () => '  '.repeat(open.length);
  const nameOf = (tag: string) => /^<\/?\s*([^\s/>]+)/.exec(tag)?.[1] ?? '';
  const isOpening = (tok: string) => /^<[^/!?]/.test(tok) && !/\/\s*>$/.test(tok);
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i]!;
    if (tok.startsWith('</')) {
      if (open.pop() !== nameOf(tok)) return null;
      lines.push(indent() + tok);
    } else if (isOpening(tok)) {
      const next = tokens[i + 1];
      const after = tokens[i + 2];
      const name = nameOf(tok);
      if (next !== undefined && !next.startsWith('<') && after?.startsWith('</')) {
        if (nameOf(after) !== name) return null;
        lines.push(indent() + tok + next.trim() + after);
        i += 2;
      } else if (next?.startsWith('</')) {
        if (nameOf(next) !== name) return null;
        lines.push(indent() + tok + next);
        i += 1;
      } else {
        lines.push(indent() + tok);
        open.push(name);
      }
    } else if (!tok.startsWith('<')) {
      const text = tok.trim();
      if (text) lines.push(indent() + text);
    } else {
      lines.push(indent() + tok);
    }
  }
  return open.length === 0 ? lines.join('\n') : null;
}

/** name=value pairs of a form body, decoded as the platform reads them (a value keeps every `=`), one a line. */
export function prettyForm(text: string): string {
  return Array.from(new URLSearchParams(text), ([k, v]) => `${k} = ${v}`).join('\n');
}

/** The pretty view of a body, or null when there is none better than the raw text. */
export function prettyBody(body: string, kind: BodyKind): string | null {
  if (kind === 'json') return prettyJson(body);
  if (kind === 'xml') return prettyXml(body);
  if (kind === 'form') return prettyForm(body);
  return null;
}

/** Size of a text in UTF-8 bytes. */
export function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}
