/**
 * Reading a captured request pasted into the signature workbench: raw HTTP/1.1, a cURL command
 * (as browsers' "Copy as cURL (bash)" and our own httpsnippet output write it), or just header
 * lines. The result feeds `diagnoseSignature` (see `capturedSignatureInput`).
 *
 * Nothing here touches the network or the file system; `@file` bodies are not read.
 */
import {
  coder,
  type CapturedRequest,
  type CapturedParseError,
  type ParseCapturedResult,
  type ParseProblem,
  type ParseProblemParams,
  type ParseWarning,
  type ParseWarningParams,
} from '../../common/signature-types';
export type { CapturedFormat, CapturedRequest, CapturedParseError, ParseCapturedResult, ParseProblem, ParseWarning } from '../../common/signature-types';

const problem = coder<ParseProblemParams>();
const warning = coder<ParseWarningParams>();

export interface CapturedDefaults {
  /**
   * The URL for header-only captures; for raw HTTP its scheme (default https) and, without a Host
   * header, its host; for a cURL URL without a scheme, its scheme (cURL itself assumes http).
   */
  url?: string;
  /** The method for header-only captures; default POST (the voice endpoints' method). */
  method?: string;
}

/** Upper bound on the pasted text: a captured request, not a log file. */
export const MAX_CAPTURED_LENGTH = 1024 * 1024;

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const REQUEST_LINE = /^(\S+)[ \t]+(\S+)(?:[ \t]+(HTTP\/\S+))?[ \t]*$/;
const HTTP_VERSION = /^HTTP\/\d(?:\.\d)?$/;
const COMMON_METHODS = /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|TRACE|CONNECT)$/i;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

function fail(error: CapturedParseError, detail: ParseProblem): ParseCapturedResult {
  return { ok: false, error, detail };
}

/**
 * Parse a captured request. Detection, in order: a command starting with `curl` → cURL; a first
 * line `METHOD target [HTTP/x.y]` → raw HTTP; only `Name: value` lines → headers (method and URL
 * from `defaults`). HTTP/2 pseudo-headers (`:method`, `:scheme`, `:authority`, `:path`, as browser
 * dev tools show them) are understood in raw HTTP and header captures.
 */
export function parseCapturedRequest(text: string, defaults: CapturedDefaults = {}): ParseCapturedResult {
  if (typeof text !== 'string') return fail('unrecognised', problem('not-text', {}));
  if (text.length > MAX_CAPTURED_LENGTH) return fail('unrecognised', problem('too-long', { length: text.length, max: MAX_CAPTURED_LENGTH }));
  const s = text.replace(/^\uFEFF/, '');
  if (s.trim() === '') return fail('empty', problem('empty', {}));
  const lead = s.replace(/^\s+/, '');
  if (/^(?:\$[ \t]+)?(?:\S*[/\\])?curl(?:\.exe)?(?:\s|$)/i.test(lead)) return parseCurl(lead.replace(/^\$[ \t]+/, ''), defaults);

  const lines = lead.split(/\r?\n/);
  const first = (lines[0] ?? '').trim();
  const rl = REQUEST_LINE.exec(first);
  if (rl && isRequestLineLike(rl)) return parseHttp(lines, defaults);
  return parseHeaderOnly(lines, defaults);
}

function isRequestLineLike(m: RegExpExecArray): boolean {
  const [, method = '', target = '', version] = m;
  if (version !== undefined) return true;
  // Without a version: "POST /voice/vm" or "GET https://...": only with a known method and a target
  // that is a path or an absolute URL (so that "Date: Sat, ..." is not mistaken for one).
  return COMMON_METHODS.test(method) && (target.startsWith('/') || SCHEME.test(target));
}

// ---------------------------------------------------------------- headers

interface HeaderBlock {
  headers: Record<string, string>;
  pseudo: Record<string, string>;
  warnings: ParseWarning[];
}

type HeaderLineProblem = { line: number; text: string; badName: boolean };

/** Parse `Name: value` lines (obs-fold continuation lines are joined). Line numbers are 1-based in `offset` terms. */
function parseHeaderLines(lines: string[], offset: number): { ok: true; block: HeaderBlock } | { ok: false; problem: HeaderLineProblem } {
  const headers: Record<string, string> = {};
  const pseudo: Record<string, string> = {};
  const counts = new Map<string, number>();
  const warnings: ParseWarning[] = [];
  let lastName: string | null = null;
  let lastPseudo = false;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] ?? '';
    const lineNo = offset + i + 1;
    if (/^[ \t]/.test(raw) && lastName !== null) {
      // obs-fold: a continuation of the previous header's value.
      const target = lastPseudo ? pseudo : headers;
      if ((counts.get(lastName) ?? 0) <= 1) target[lastName] = `${target[lastName] ?? ''} ${raw.trim()}`.trim();
      continue;
    }
    const colon = raw.startsWith(':') ? raw.indexOf(':', 1) : raw.indexOf(':');
    if (colon <= 0) return { ok: false, problem: { line: lineNo, text: clip(raw), badName: false } };
    const isPseudo = raw.startsWith(':');
    const name = raw.slice(isPseudo ? 1 : 0, colon).toLowerCase();
    if (!TOKEN.test(name)) return { ok: false, problem: { line: lineNo, text: clip(raw.slice(0, colon)), badName: true } };
    const value = raw.slice(colon + 1).trim();
    const key = isPseudo ? ':' + name : name;
    const seen = (counts.get(key) ?? 0) + 1;
    counts.set(key, seen);
    if (seen === 1) {
      if (isPseudo) pseudo[name] = value;
      else headers[name] = value;
    } else if (seen === 2) {
      warnings.push(warning('duplicate-header', { name: `${isPseudo ? ':' : ''}${name}` }));
    }
    lastName = name;
    lastPseudo = isPseudo;
  }
  return { ok: true, block: { headers, pseudo, warnings } };
}

function clip(s: string, n = 60): string {
  return s.length > n ? s.slice(0, n) + '…' : s;
}

function headerProblem(p: HeaderLineProblem): ParseProblem {
  return p.badName ? problem('header-name', { line: p.line, name: p.text }) : problem('not-a-header', { line: p.line, text: p.text });
}

function defaultUrl(defaults: CapturedDefaults): { ok: true; url: URL | null } | { ok: false; result: ParseCapturedResult } {
  if (defaults.url === undefined || defaults.url.trim() === '') return { ok: true, url: null };
  const u = absoluteHttpUrl(defaults.url.trim());
  if (!u) return { ok: false, result: fail('bad-url', problem('default-url', { url: clip(defaults.url.trim()) })) };
  return { ok: true, url: u };
}

function absoluteHttpUrl(s: string): URL | null {
  try {
    const u = new URL(s);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    if (u.hostname === '') return null;
    u.hash = '';
    return u;
  } catch {
    return null;
  }
}

/** scheme://authority + origin-form target, validated. */
function urlFrom(scheme: string, authority: string, target: string): { ok: true; url: URL } | { ok: false; result: ParseCapturedResult } {
  if (/[\s/?#@]/.test(authority) || authority === '') {
    return { ok: false, result: fail('bad-url', problem('host-name', { host: clip(authority) })) };
  }
  const u = absoluteHttpUrl(`${scheme}//${authority}${target}`);
  if (!u) return { ok: false, result: fail('bad-url', problem('url-from-host', { host: clip(authority), target: clip(target) })) };
  return { ok: true, url: u };
}

function finish(value: Omit<CapturedRequest, 'url'> & { url: URL }): ParseCapturedResult {
  return { ok: true, value: { ...value, url: value.url.href } };
}

// ---------------------------------------------------------------- raw HTTP

function parseHttp(lines: string[], defaults: CapturedDefaults): ParseCapturedResult {
  const first = (lines[0] ?? '').trim();
  const m = REQUEST_LINE.exec(first);
  const [, method = '', target = '', version] = m ?? [];
  if (!TOKEN.test(method)) return fail('bad-request-line', problem('method', { method: clip(method) }));
  if (version !== undefined && !HTTP_VERSION.test(version)) return fail('bad-request-line', problem('http-version', { version: clip(version) }));
  const blank = lines.findIndex((l, i) => i > 0 && l.trim() === '');
  const headerLines = lines.slice(1, blank < 0 ? undefined : blank);
  const parsed = parseHeaderLines(headerLines, 1);
  if (!parsed.ok) return fail('bad-header', headerProblem(parsed.problem));
  const { headers, pseudo, warnings } = parsed.block;
  const bodyText = blank < 0 ? '' : lines.slice(blank + 1).join('\n');
  const body = bodyText.trim() === '' ? null : bodyText.replace(/\n+$/, '');
  if (version === undefined) warnings.push(warning('no-http-version', {}));

  const dflt = defaultUrl(defaults);
  if (!dflt.ok) return dflt.result;
  let url: URL;
  if (SCHEME.test(target)) {
    const u = absoluteHttpUrl(target);
    if (!u) return fail('bad-url', problem('not-http-url', { url: clip(target) }));
    url = u;
  } else if (target.startsWith('/') || target === '*') {
    if (target === '*') return fail('bad-request-line', problem('target-asterisk', {}));
    const scheme = pseudo.scheme ? pseudo.scheme.toLowerCase() + ':' : (dflt.url?.protocol ?? 'https:');
    if (scheme !== 'http:' && scheme !== 'https:') return fail('bad-url', problem('scheme', { scheme: clip(pseudo.scheme ?? '') }));
    const authority = headers.host ?? pseudo.authority ?? dflt.url?.host;
    if (authority === undefined) return fail('no-host', problem('no-host', {}));
    if (headers.host === undefined) {
      warnings.push(pseudo.authority !== undefined ? warning('host-from-authority', {}) : warning('host-from-url', { origin: dflt.url?.origin ?? '' }));
    }
    const built = urlFrom(scheme, authority, target);
    if (!built.ok) return built.result;
    url = built.url;
    if (!pseudo.scheme && !dflt.url) warnings.push(warning('scheme-assumed', {}));
  } else {
    return fail('bad-request-line', problem('target', { target: clip(target) }));
  }
  return finish({ method, url, headers, body, format: 'http', warnings });
}

// ---------------------------------------------------------------- header lines only

function parseHeaderOnly(lines: string[], defaults: CapturedDefaults): ParseCapturedResult {
  // Trailing blank lines are fine; a blank line in the middle ends the headers (a body may follow).
  let end = lines.length;
  while (end > 0 && (lines[end - 1] ?? '').trim() === '') end--;
  const blank = lines.slice(0, end).findIndex((l) => l.trim() === '');
  const headerLines = lines.slice(0, blank < 0 ? end : blank);
  const parsed = parseHeaderLines(headerLines, 0);
  if (!parsed.ok) return fail('unrecognised', problem('not-a-request', { line: parsed.problem.line, text: parsed.problem.text }));
  const { headers, pseudo, warnings } = parsed.block;
  const bodyText = blank < 0 ? '' : lines.slice(blank + 1, end).join('\n');
  const body = bodyText.trim() === '' ? null : bodyText;

  const dflt = defaultUrl(defaults);
  if (!dflt.ok) return dflt.result;
  let url: URL;
  if (pseudo.path !== undefined && pseudo.path.startsWith('/')) {
    const scheme = pseudo.scheme ? pseudo.scheme.toLowerCase() + ':' : (dflt.url?.protocol ?? 'https:');
    if (scheme !== 'http:' && scheme !== 'https:') return fail('bad-url', problem('scheme', { scheme: clip(pseudo.scheme ?? '') }));
    const authority = pseudo.authority ?? headers.host ?? dflt.url?.host;
    if (authority === undefined) return fail('no-host', problem('no-authority', {}));
    const built = urlFrom(scheme, authority, pseudo.path);
    if (!built.ok) return built.result;
    url = built.url;
  } else if (dflt.url) {
    url = dflt.url;
  } else {
    return fail('no-url', problem('headers-only', {}));
  }

  let method = pseudo.method;
  if (method === undefined) {
    if (defaults.method !== undefined && defaults.method.trim() !== '') method = defaults.method.trim();
    else {
      method = 'POST';
      warnings.push(warning('method-assumed', {}));
    }
  }
  if (!TOKEN.test(method)) return fail('bad-request-line', problem('method', { method: clip(method) }));
  return finish({ method, url, headers, body, format: 'headers', warnings });
}

// ---------------------------------------------------------------- cURL

type Word = { text: string };

/**
 * Split a POSIX-shell command line into words: single quotes, double quotes (\\ \" \$ \` and
 * backslash-newline), $'...' ANSI-C quoting, backslash escapes, backslash-newline continuations.
 * An unquoted | ; & or a newline ends the command (a pipe into jq, a second command), except a
 * newline followed by an option ("-..."), which is read as a forgotten continuation backslash.
 */
function shellWords(s: string): { ok: true; words: Word[]; rest: string; joinedLines: boolean } | { ok: false; detail: ParseProblem } {
  const words: Word[] = [];
  let joinedLines = false;
  let i = 0;
  const n = s.length;
  let cur: string | null = null;
  const push = (): void => {
    if (cur !== null) words.push({ text: cur });
    cur = null;
  };
  while (i < n) {
    const c = s[i] as string;
    if (c === '\\' && (s[i + 1] === '\n' || (s[i + 1] === '\r' && s[i + 2] === '\n'))) {
      i += s[i + 1] === '\n' ? 2 : 3; // line continuation
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      push();
      i++;
      continue;
    }
    if (c === '\n' && /^[ \t]*-/.test(s.slice(i + 1, i + 200))) {
      // A line break without the backslash, followed by another option: the same command.
      push();
      joinedLines = true;
      i++;
      continue;
    }
    if (c === '\n' || c === '|' || c === ';' || c === '&') {
      push();
      return { ok: true, words, rest: s.slice(i), joinedLines };
    }
    if (c === '#' && cur === null) {
      // A comment to the end of the line.
      while (i < n && s[i] !== '\n') i++;
      continue;
    }
    if (c === "'") {
      const end = s.indexOf("'", i + 1);
      if (end < 0) return { ok: false, detail: problem('curl-quote', { kind: 'single' }) };
      cur = (cur ?? '') + s.slice(i + 1, end);
      i = end + 1;
      continue;
    }
    if (c === '$' && s[i + 1] === "'") {
      const r = ansiC(s, i + 2);
      if (!r.ok) return r;
      cur = (cur ?? '') + r.text;
      i = r.end;
      continue;
    }
    if (c === '"') {
      let out = '';
      let j = i + 1;
      for (;;) {
        if (j >= n) return { ok: false, detail: problem('curl-quote', { kind: 'double' }) };
        const d = s[j] as string;
        if (d === '"') break;
        if (d === '\\') {
          const e = s[j + 1];
          if (e === '\n') {
            j += 2;
            continue;
          }
          if (e === '"' || e === '\\' || e === '$' || e === '`') {
            out += e;
            j += 2;
            continue;
          }
          out += d;
          j++;
          continue;
        }
        out += d;
        j++;
      }
      cur = (cur ?? '') + out;
      i = j + 1;
      continue;
    }
    if (c === '\\') {
      if (i + 1 >= n) return { ok: false, detail: problem('curl-backslash', {}) };
      cur = (cur ?? '') + (s[i + 1] as string);
      i += 2;
      continue;
    }
    cur = (cur ?? '') + c;
    i++;
  }
  push();
  return { ok: true, words, rest: '', joinedLines };
}

const ANSI_SIMPLE: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** $'...' (bash ANSI-C quoting), starting after the opening quote. */
function ansiC(s: string, start: number): { ok: true; text: string; end: number } | { ok: false; detail: ParseProblem } {
  // Escapes produce bytes (\xHH, octal) or code points (\u, \U); bytes are collected and decoded as UTF-8.
  const bytes: number[] = [];
  const addText = (t: string): void => {
    for (const b of Buffer.from(t, 'utf8')) bytes.push(b);
  };
  let i = start;
  const n = s.length;
  while (i < n) {
    const c = s[i] as string;
    if (c === "'") return { ok: true, text: Buffer.from(bytes).toString('utf8'), end: i + 1 };
    if (c !== '\\') {
      const cp = s.codePointAt(i) as number;
      const ch = String.fromCodePoint(cp);
      addText(ch);
      i += ch.length;
      continue;
    }
    const e = s[i + 1];
    if (e === undefined) break;
    if (e in ANSI_SIMPLE) {
      addText(ANSI_SIMPLE[e] as string);
      i += 2;
      continue;
    }
    if (e === 'x') {
      const m = /^[0-9A-Fa-f]{1,2}/.exec(s.slice(i + 2, i + 4));
      if (!m) return { ok: false, detail: problem('curl-escape', { escape: '\\x', position: i }) };
      bytes.push(parseInt(m[0], 16));
      i += 2 + m[0].length;
      continue;
    }
    if (e === 'u' || e === 'U') {
      const m = (e === 'u' ? /^[0-9A-Fa-f]{1,4}/ : /^[0-9A-Fa-f]{1,8}/).exec(s.slice(i + 2, i + (e === 'u' ? 6 : 10)));
      const cp = m ? parseInt(m[0], 16) : NaN;
      if (!m || cp > 0x10ffff) return { ok: false, detail: problem('curl-escape', { escape: `\\${e}`, position: i }) };
      addText(String.fromCodePoint(cp));
      i += 2 + m[0].length;
      continue;
    }
    if (/[0-7]/.test(e)) {
      const m = /^[0-7]{1,3}/.exec(s.slice(i + 1, i + 4)) as RegExpExecArray;
      bytes.push(parseInt(m[0], 8) & 0xff);
      i += 1 + m[0].length;
      continue;
    }
    if (e === 'c') return { ok: false, detail: problem('curl-control-escape', {}) };
    addText('\\' + e); // unknown escapes stay as written, like bash
    i += 2;
  }
  return { ok: false, detail: problem('curl-quote', { kind: 'ansi-c' }) };
}

/** Options that take an argument and map onto the request. */
type CurlAction =
  'method' | 'url' | 'header' | 'data' | 'data-raw' | 'data-urlencode' | 'json' | 'user-agent' | 'referer' | 'cookie' | 'user' | 'form' | 'upload';

const LONG_WITH_ARG: Record<string, CurlAction | 'ignore'> = {
  request: 'method',
  url: 'url',
  header: 'header',
  data: 'data',
  'data-ascii': 'data',
  'data-binary': 'data',
  'data-raw': 'data-raw',
  'data-urlencode': 'data-urlencode',
  json: 'json',
  'user-agent': 'user-agent',
  referer: 'referer',
  cookie: 'cookie',
  user: 'user',
  form: 'form',
  'form-string': 'form',
  'upload-file': 'upload',
  output: 'ignore',
  'max-time': 'ignore',
  'connect-timeout': 'ignore',
  retry: 'ignore',
  'retry-delay': 'ignore',
  'retry-max-time': 'ignore',
  'write-out': 'ignore',
  proxy: 'ignore',
  'proxy-user': 'ignore',
  noproxy: 'ignore',
  cacert: 'ignore',
  capath: 'ignore',
  cert: 'ignore',
  'cert-type': 'ignore',
  key: 'ignore',
  'key-type': 'ignore',
  pass: 'ignore',
  resolve: 'ignore',
  'connect-to': 'ignore',
  'limit-rate': 'ignore',
  range: 'ignore',
  'cookie-jar': 'ignore',
  'dump-header': 'ignore',
  trace: 'ignore',
  'trace-ascii': 'ignore',
  interface: 'ignore',
  'max-redirs': 'ignore',
  'expect100-timeout': 'ignore',
  'keepalive-time': 'ignore',
  'unix-socket': 'ignore',
  'abstract-unix-socket': 'ignore',
  ciphers: 'ignore',
  'tls-max': 'ignore',
  stderr: 'ignore',
  config: 'ignore',
  'request-target': 'ignore',
};

const SHORT_WITH_ARG: Record<string, CurlAction | 'ignore'> = {
  X: 'method',
  H: 'header',
  d: 'data',
  A: 'user-agent',
  e: 'referer',
  b: 'cookie',
  u: 'user',
  F: 'form',
  T: 'upload',
  o: 'ignore',
  m: 'ignore',
  w: 'ignore',
  x: 'ignore',
  E: 'ignore',
  r: 'ignore',
  c: 'ignore',
  D: 'ignore',
  U: 'ignore',
  K: 'ignore',
  Y: 'ignore',
  y: 'ignore',
  z: 'ignore',
  C: 'ignore',
  P: 'ignore',
  Q: 'ignore',
  t: 'ignore',
};

/** Flags (no value) known to have no effect on what is signed: accepted silently. */
const HARMLESS_FLAGS = new Set([
  '-s',
  '-S',
  '-k',
  '-v',
  '-L',
  '-i',
  '-f',
  '-g',
  '-N',
  '-#',
  '-0',
  '-1',
  '-2',
  '-3',
  '-4',
  '-6',
  '-j',
  '-l',
  '-n',
  '-O',
  '-J',
  '-R',
  '-q',
  '-Z',
  '-B',
  '-p',
  '--compressed',
  '--insecure',
  '--silent',
  '--show-error',
  '--location',
  '--location-trusted',
  '--include',
  '--verbose',
  '--fail',
  '--fail-with-body',
  '--globoff',
  '--no-buffer',
  '--http1.0',
  '--http1.1',
  '--http2',
  '--http2-prior-knowledge',
  '--http3',
  '--path-as-is',
  '--no-keepalive',
  '--tcp-nodelay',
  '--ipv4',
  '--ipv6',
  '--tlsv1.2',
  '--tlsv1.3',
  '--ssl',
  '--no-progress-meter',
  '--progress-bar',
  '--raw',
  '--remote-name',
  '--remote-header-name',
  '--junk-session-cookies',
  '--proxy-insecure',
  '--disable',
  '--no-alpn',
  '--no-npn',
  '--no-sessionid',
  '--false-start',
  '--styled-output',
]);

function parseCurl(command: string, defaults: CapturedDefaults): ParseCapturedResult {
  if (/\^\s*\r?\n/.test(command) || /\^"/.test(command)) {
    return fail('bad-curl', problem('curl-cmd-exe', {}));
  }
  const split = shellWords(command);
  if (!split.ok) return fail('bad-curl', split.detail);
  const warnings: ParseWarning[] = [];
  if (split.rest.replace(/^[\s|;&]+/, '').trim() !== '') warnings.push(warning('text-after-curl', {}));
  const words = split.words.map((w) => w.text);
  words.shift(); // curl

  let method: string | null = null;
  const urls: string[] = [];
  const headerLines: string[] = [];
  const data: string[] = [];
  let get = false;
  let head = false;
  let json = false;
  let bodyUnknown: ParseWarning | null = null;
  let upload = false;
  const ignored = new Set<string>();

  const apply = (action: CurlAction | 'ignore', arg: string, name: string): void => {
    switch (action) {
      case 'method':
        method = arg;
        break;
      case 'url':
        urls.push(arg);
        break;
      case 'header':
        headerLines.push(arg);
        break;
      case 'data':
        if (arg.startsWith('@'))
          bodyUnknown =
            arg === '@-' ? warning('body-unavailable', { kind: 'stdin', file: '' }) : warning('body-unavailable', { kind: 'file', file: clip(arg.slice(1)) });
        else data.push(arg);
        break;
      case 'data-raw':
        data.push(arg);
        break;
      case 'json':
        json = true;
        if (arg.startsWith('@')) bodyUnknown = warning('body-unavailable', { kind: 'json-file', file: clip(arg.slice(1)) });
        else data.push(arg);
        break;
      case 'data-urlencode': {
        const eq = arg.indexOf('=');
        if (arg.startsWith('@') || (eq >= 0 && arg[eq + 1] === '@') || (eq < 0 && arg.includes('@'))) {
          bodyUnknown = warning('body-unavailable', { kind: 'urlencode-file', file: '' });
        } else if (eq < 0) data.push(encodeURIComponent(arg));
        else data.push(arg.slice(0, eq + 1) + encodeURIComponent(arg.slice(eq + 1)));
        break;
      }
      case 'user-agent':
        headerLines.push('User-Agent: ' + arg);
        break;
      case 'referer':
        headerLines.push('Referer: ' + arg.replace(/;auto$/, ''));
        break;
      case 'cookie':
        if (arg.includes('=')) headerLines.push('Cookie: ' + arg);
        else warnings.push(warning('cookie-file', { option: name, file: clip(arg) }));
        break;
      case 'user':
        warnings.push(warning('basic-auth', { option: name }));
        break;
      case 'form':
        bodyUnknown = warning('body-unavailable', { kind: 'form', file: '' });
        break;
      case 'upload':
        upload = true;
        bodyUnknown = warning('body-unavailable', { kind: 'upload', file: clip(arg) });
        break;
      case 'ignore':
        break;
    }
  };

  for (let i = 0; i < words.length; i++) {
    const w = words[i] as string;
    if (w === '--') {
      urls.push(...words.slice(i + 1));
      break;
    }
    if (w.startsWith('--')) {
      // cURL's long options take their value as the next word (there is no --name=value form).
      const name = w.toLowerCase();
      const action = LONG_WITH_ARG[name.slice(2)];
      if (action !== undefined) {
        const arg = words[++i];
        if (arg === undefined) return fail('bad-curl', problem('curl-option-value', { option: clip(name) }));
        apply(action, arg, name);
      } else if (name === '--get') get = true;
      else if (name === '--head') head = true;
      else if (!HARMLESS_FLAGS.has(name)) ignored.add(w);
      continue;
    }
    if (w.startsWith('-') && w.length > 1) {
      // A cluster of short options: -sSL, -XPOST, -HName:value.
      for (let j = 1; j < w.length; j++) {
        const c = w[j] as string;
        const action = SHORT_WITH_ARG[c];
        if (action !== undefined) {
          let arg: string | undefined = w.slice(j + 1);
          if (arg === '') arg = words[++i];
          if (arg === undefined) return fail('bad-curl', problem('curl-option-value', { option: '-' + c }));
          apply(action, arg, '-' + c);
          break;
        }
        if (c === 'G') get = true;
        else if (c === 'I') head = true;
        else if (!HARMLESS_FLAGS.has('-' + c)) ignored.add('-' + c);
      }
      continue;
    }
    urls.push(w);
  }

  if (ignored.size > 0) {
    warnings.push(warning('unknown-options', { options: clip([...ignored].join(', '), 120) }));
  }
  if (split.joinedLines) warnings.push(warning('joined-lines', {}));
  if (urls.length === 0) {
    if (!defaults.url) return fail('no-url', problem('curl-no-url', {}));
    urls.push(defaults.url);
    warnings.push(warning('curl-default-url', {}));
  }
  if (urls.length > 1) warnings.push(warning('several-urls', { count: urls.length }));
  let urlText = (urls[0] as string).trim();
  if (!SCHEME.test(urlText)) {
    if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(urlText) || /^[a-z]+:[^\d]/i.test(urlText)) {
      return fail('bad-url', problem('not-http-url', { url: clip(urlText) }));
    }
    const dflt = defaultUrl(defaults);
    const scheme = dflt.ok && dflt.url ? dflt.url.protocol : 'http:';
    warnings.push(warning('url-scheme-assumed', { kind: scheme === 'https:' ? 'https' : 'http' }));
    urlText = `${scheme}//${urlText}`;
  }
  const url = absoluteHttpUrl(urlText);
  if (!url) return fail('bad-url', problem('not-http-url', { url: clip(urlText) }));

  const headers: Record<string, string> = {};
  for (const h of headerLines) {
    const semi = /^([^:;\s]+);\s*$/.exec(h);
    if (semi) {
      // curl: "Name;" sends the header with an empty value.
      headers[(semi[1] as string).toLowerCase()] ??= '';
      continue;
    }
    const colon = h.indexOf(':');
    const name = colon > 0 ? h.slice(0, colon).trim() : '';
    if (!TOKEN.test(name)) return fail('bad-header', problem('curl-header', { header: clip(h) }));
    const value = h.slice(colon + 1).trim();
    const key = name.toLowerCase();
    if (value === '') {
      warnings.push(warning('header-removed', { name: clip(name) }));
      continue;
    }
    if (key in headers) {
      warnings.push(warning('duplicate-header', { name: clip(key) }));
      continue;
    }
    headers[key] = value;
  }
  if (json) {
    headers['content-type'] ??= 'application/json';
    headers.accept ??= 'application/json';
  }

  let body: string | null = data.length > 0 ? data.join('&') : null;
  if (bodyUnknown !== null) {
    warnings.push(bodyUnknown);
    body = null;
  }
  if (get && data.length > 0) {
    url.search = url.search === '' ? '?' + data.join('&') : url.search + '&' + data.join('&');
    body = null;
  }
  const finalMethod: string = method ?? (head ? 'HEAD' : get ? 'GET' : upload ? 'PUT' : data.length > 0 || bodyUnknown !== null ? 'POST' : 'GET');
  if (!TOKEN.test(finalMethod)) return fail('bad-curl', problem('method', { method: clip(finalMethod) }));
  return finish({ method: finalMethod, url, headers, body, format: 'curl', warnings });
}

// ---------------------------------------------------------------- to the verifier

/**
 * What `diagnoseSignature` / `verifyRequest` need from a capture: the method, URL and the Host,
 * Date and Authorization headers. When the capture has no Host header (a cURL command or pasted
 * headers), `host` is left out: the verifier then uses the URL's host, which is what cURL sends.
 */
export function capturedSignatureInput(req: CapturedRequest): {
  method: string;
  url: string;
  host?: string;
  date?: string;
  authorization?: string;
} {
  return {
    method: req.method,
    url: req.url,
    ...(req.headers.host !== undefined ? { host: req.headers.host } : {}),
    ...(req.headers.date !== undefined ? { date: req.headers.date } : {}),
    ...(req.headers.authorization !== undefined ? { authorization: req.headers.authorization } : {}),
  };
}
