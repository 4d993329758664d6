/**
 * Why a signature fails: the workbench's "verify and diagnose" (issue 6) and `callout verify`.
 *
 * The verdict is `verifyRequest`'s. On top of it, the diagnosis recomputes candidate strings to
 * sign with the usual mistakes applied (query string signed, trailing line break, another host or
 * port, lower-case method, another path, another date) and compares their HMACs with the signature
 * in the request. A candidate that matches names its mistakes with high confidence. Every string is
 * built by the engine (`buildStringToSign`, `stringToSignLines`); only the method's letter case is
 * changed on the engine's output, since the engine always upper-cases the method.
 */
import { createHmac } from 'node:crypto';
import { parseAuthorization } from './authorization';
import { CLOCK_WINDOW_SECONDS, clockSkewSeconds, withinWindow } from './clock';
import { hostOf } from './host';
import { formatHttpDate, parseHttpDate } from './http-date';
import { SIGNATURE_ALGORITHM, SIGNED_HEADERS, type SignatureVariant } from './scheme';
import { signParts } from './sign';
import { buildStringToSign, upperMethod } from './string-to-sign';
import { verifyRequest } from './verify';
import {
  coder,
  type LikelyCause,
  type CauseConfidence,
  type DiagnosisPart,
  type DiagnosisCause,
  type VariantComputation,
  type InferredChange,
  type Diagnosis,
  type Evidence,
  type EvidenceParams,
  type PartNoteParams,
  type SkewDirection,
  type StringToSignForm,
} from '../../common/signature-types';
import { systemClock } from '../clock';
export type {
  DiagnosedPart,
  PartStatus,
  LikelyCause,
  CauseConfidence,
  DiagnosisPart,
  DiagnosisCause,
  VariantComputation,
  InferredChange,
  Diagnosis,
  DiagnosisText,
  Evidence,
  PartNote,
} from '../../common/signature-types';

const evidence = coder<EvidenceParams>();
const note = coder<PartNoteParams>();
export interface DiagnoseInput {
  method: string;
  /** The URL the request went to. */
  url: string;
  /** The Host header; default: the URL's host (hostOf). */
  host?: string | null;
  /** The Date header. */
  date?: string | null;
  /** The Authorization header. */
  authorization?: string | null;
  /** The key to check with (a profile's, resolved in main, or one typed for the session). */
  apiKey: string;
  /** The profile's API ID, to compare with keyId. */
  expectedApiId?: string | null;
  /** The variant the gateway checks; default 'spec' (the verdict uses it; 'any' accepts both). */
  variant?: SignatureVariant | 'any';
  /** The gateway's clock; default now. */
  now?: Date;
  /** Default 300. */
  windowSeconds?: number;
  /**
   * Dates the signature may have been computed with instead of the Date header (e.g. another
   * header, a log line). Dates one second either side of the Date header are always tried.
   */
  candidateDates?: string[];
}

/** A |skew| above this share of the window is reported as "close to the edge". */
const NEAR_EDGE = 0.8;

type Framing = { trailing: boolean; query: boolean };
type Dim = 'framing' | 'host' | 'path' | 'method' | 'date';
type Alt = { value: string; causes: LikelyCause[]; evidence: Evidence };

/** Scheme steps 2 and 3 over a candidate string (one the engine cannot build as a whole, e.g. a lower-case method). */
function hmac(key: string, text: string): string {
  return createHmac('sha256', Buffer.from(key, 'utf8')).update(Buffer.from(text, 'utf8')).digest('base64');
}

/** Split a Host value into name and port ('' when none); IPv6 literals keep their brackets. */
function splitHost(host: string): { name: string; port: string } {
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    if (end > 0) {
      const rest = host.slice(end + 1);
      return { name: host.slice(0, end + 1), port: rest.startsWith(':') ? rest.slice(1) : '' };
    }
    return { name: host, port: '' };
  }
  const colon = host.lastIndexOf(':');
  if (colon > 0 && host.indexOf(':') === colon) return { name: host.slice(0, colon), port: host.slice(colon + 1) };
  return { name: host, port: '' };
}

function joinHost(name: string, port: string): string {
  return port === '' ? name : `${name}:${port}`;
}

const LOOPBACK = ['127.0.0.1', 'localhost', '[::1]'];

function hostAlternatives(base: string, url: URL): Alt[] {
  const { name, port } = splitHost(base);
  const urlHost = hostOf(url);
  const names = new Set<string>([name]);
  const urlName = url.hostname;
  names.add(urlName);
  names.add(name.toLowerCase());
  if (LOOPBACK.includes(name.toLowerCase()) || LOOPBACK.includes(urlName)) for (const l of LOOPBACK) names.add(l);
  const defaultPort = url.protocol === 'http:' ? '80' : '443';
  const ports = new Set<string>([port, '', defaultPort, url.port]);
  const out: Alt[] = [];
  const seen = new Set<string>([base]);
  for (const n of names) {
    for (const p of ports) {
      const value = joinHost(n, p);
      if (seen.has(value)) continue;
      seen.add(value);
      const causes: LikelyCause[] = [];
      if (n !== name) causes.push('wrong-host');
      if (p !== port) causes.push('wrong-port');
      const kind = value === urlHost && base !== urlHost ? 'url-host' : n !== name ? 'other-host' : p === '' ? 'without-port' : 'port';
      out.push({ value, causes, evidence: evidence('signed-host', { kind, host: value, base, port: p }) });
    }
  }
  return out;
}

type PathKind = EvidenceParams['signed-path']['kind'];

function pathAlternatives(path: string): Alt[] {
  const out = new Map<string, { kind: PathKind; prefix: string }>();
  const add = (p: string, kind: PathKind, prefix = ''): void => {
    if (p !== path && p !== '' && !out.has(p)) out.set(p, { kind, prefix });
  };
  if (path.length > 1 && path.endsWith('/')) add(path.replace(/\/+$/, '') || '/', 'without-slash');
  else add(path + '/', 'with-slash');
  try {
    const decoded = decodeURIComponent(path);
    add(decoded, 'decoded');
  } catch {
    // not decodable: no alternative
  }
  if (/%[0-9a-fA-F]{2}/.test(path)) {
    add(
      path.replace(/%[0-9a-fA-F]{2}/g, (m) => m.toLowerCase()),
      'escapes-lower',
    );
    add(
      path.replace(/%[0-9a-fA-F]{2}/g, (m) => m.toUpperCase()),
      'escapes-upper',
    );
  }
  // A gateway route prefix: the client signed the path without the leading segments (or the reverse is
  // not knowable). Up to three segments dropped.
  const segments = path.split('/').filter((s) => s !== '');
  for (let drop = 1; drop <= Math.min(3, segments.length - 1); drop++) {
    add('/' + segments.slice(drop).join('/'), 'without-prefix', `/${segments.slice(0, drop).join('/')}`);
  }
  return [...out].map(([value, { kind, prefix }]) => ({ value, causes: ['path-mismatch'], evidence: evidence('signed-path', { kind, path: value, prefix }) }));
}

type DateKind = EvidenceParams['signed-date']['kind'];

function dateAlternatives(date: string, candidates: readonly string[], now: Date): Alt[] {
  const out = new Map<string, DateKind>();
  const add = (d: string, kind: DateKind): void => {
    if (d !== date && !/[\r\n]/.test(d) && !out.has(d)) out.set(d, kind);
  };
  for (const c of candidates.slice(0, 20)) add(c.trim(), 'candidate');
  const parsed = parseHttpDate(date, now);
  if (parsed) {
    const t = parsed.getTime();
    try {
      add(formatHttpDate(parsed), 'imf-fixdate');
      add(formatHttpDate(new Date(t - 1000)), 'second-before');
      add(formatHttpDate(new Date(t + 1000)), 'second-after');
    } catch {
      // a year that cannot be written: no alternative
    }
  }
  return [...out].map(([value, kind]) => ({ value, causes: ['date-mismatch'], evidence: evidence('signed-date', { kind, date: value }) }));
}

/** The form of a framing; without a query string, a line break after line 4 is simply the apisix form. */
function formOf(f: Framing, hasQuery: boolean): StringToSignForm {
  if (!hasQuery) return f.trailing ? 'apisix' : 'spec';
  return f.trailing ? (f.query ? 'apisix' : 'trailing') : f.query ? 'query' : 'spec';
}

function expectedFramings(variant: SignatureVariant | 'any', hasQuery: boolean): Framing[] {
  const spec: Framing = { trailing: false, query: false };
  const apisix: Framing = { trailing: true, query: hasQuery };
  if (variant === 'spec') return [spec];
  if (variant === 'apisix') return [apisix];
  return [spec, apisix];
}

interface Candidate {
  framing: Framing;
  host: string;
  path: string;
  lowerMethod: boolean;
  date: string;
}

/** The string to sign of a candidate, built by the engine. */
function candidateString(apiId: string, method: string, query: string, c: Candidate): string {
  const m = upperMethod(method);
  let s: string;
  if (c.framing.trailing || c.framing.query) {
    // apisix builds "...path?query\n...host\n"; the framings in between are cut from it.
    s = buildStringToSign({ apiId, method: m, host: c.host, path: c.path, query: c.framing.query ? query : '', date: c.date, variant: 'apisix' });
    if (!c.framing.trailing) s = s.slice(0, -1);
  } else {
    s = buildStringToSign({ apiId, method: m, host: c.host, path: c.path, date: c.date, variant: 'spec' });
  }
  if (c.lowerMethod) {
    const at = apiId.length + 1;
    s = s.slice(0, at) + m.toLowerCase() + s.slice(at + m.length);
  }
  return s;
}

/**
 * Diagnose a signed request against a key. Throws TypeError when `url` is not a URL (as
 * verifyRequest does); every request-side problem is reported, never thrown.
 */
export function diagnoseSignature(input: DiagnoseInput): Diagnosis {
  const url = new URL(input.url);
  url.hash = '';
  const now = input.now ?? systemClock.date();
  const windowSeconds = input.windowSeconds ?? CLOCK_WINDOW_SECONDS;
  const variant = input.variant ?? 'spec';
  const hostHeader = input.host === undefined || input.host === null || input.host.trim() === '' ? null : input.host.trim();
  const date = input.date === undefined || input.date === null || input.date.trim() === '' ? null : input.date;
  const authorization = input.authorization ?? null;
  const expectedApiId = input.expectedApiId ?? null;

  const verdict = verifyRequest({
    method: input.method,
    url: url.href,
    ...(hostHeader !== null ? { host: hostHeader } : {}),
    date,
    authorization,
    apiKey: input.apiKey,
    ...(expectedApiId !== null ? { expectedApiId } : {}),
    now,
    windowSeconds,
    variant,
  });

  const parsed = authorization === null || authorization.trim() === '' ? null : parseAuthorization(authorization);
  const auth = parsed?.ok ? parsed.value : null;
  const keyId = auth?.keyId ?? null;
  const apiId = keyId ?? expectedApiId ?? '';
  const host = hostHeader ?? hostOf(url);
  const path = url.pathname;
  const query = url.search.slice(1);
  const hasQuery = query !== '';
  const signedDate = date ?? '';
  const method = input.method;

  // --- both variants, as the gateway would compute them
  const sig = auth?.signature ?? null;
  const variantOf = (v: SignatureVariant): VariantComputation => {
    const parts = { apiId, method, host, path, query, date: signedDate, variant: v };
    const { signature } = signParts({ ...parts, apiKey: input.apiKey });
    return { stringToSign: buildStringToSign(parts), signature, matches: sig !== null && signature === sig };
  };
  const variants = { spec: variantOf('spec'), apisix: variantOf('apisix') };
  const gatewayVariants: SignatureVariant[] = variant === 'any' ? ['spec', 'apisix'] : [variant];
  const baseMatch = gatewayVariants.some((v) => variants[v].matches);

  // --- search for the mistakes that reproduce the signature
  let inferred: Diagnosis['inferred'] = null;
  let matchCauses: Array<{ id: LikelyCause; evidence: Evidence }> = [];
  let matched: Candidate | null = null;
  if (sig !== null && !baseMatch) {
    const found = searchCandidates({
      apiId,
      method,
      query,
      hasQuery,
      host,
      path,
      date: signedDate,
      url,
      now,
      variant,
      key: input.apiKey,
      sig,
      candidateDates: input.candidateDates ?? [],
    });
    if (found) {
      matched = found.candidate;
      inferred = { stringToSign: found.stringToSign, changes: found.changes };
      matchCauses = found.causes;
    }
  }

  // --- clock
  const skewSeconds = date === null ? null : clockSkewSeconds(date, now);
  const within = withinWindow(skewSeconds, windowSeconds);

  // --- causes
  const causes: DiagnosisCause[] = [];
  const addCause = (id: LikelyCause, confidence: CauseConfidence, why: Evidence): void => {
    const existing = causes.find((c) => c.id === id);
    if (!existing) causes.push({ id, confidence, evidence: why });
    else if (rank(confidence) > rank(existing.confidence)) Object.assign(existing, { confidence, evidence: why });
  };
  if (skewSeconds !== null && !within) {
    addCause('clock-drift', 'high', evidence('clock-outside', { kind: direction(skewSeconds), seconds: Math.abs(skewSeconds), window: windowSeconds }));
  } else if (skewSeconds !== null && Math.abs(skewSeconds) > windowSeconds * NEAR_EDGE) {
    addCause('clock-drift', 'medium', evidence('clock-near-edge', { kind: direction(skewSeconds), seconds: Math.abs(skewSeconds), window: windowSeconds }));
  }
  for (const c of matchCauses) addCause(c.id, 'high', c.evidence);
  const keyIdDiffers = keyId !== null && expectedApiId !== null && keyId !== expectedApiId;
  if (keyIdDiffers) {
    addCause('key-from-another-profile', 'medium', evidence('key-id-differs', { keyId, apiId: expectedApiId }));
  }
  const signatureMatchesSomewhere = baseMatch || matched !== null || variants.spec.matches || variants.apisix.matches;
  if (sig !== null && !signatureMatchesSomewhere && !keyIdDiffers) {
    // Nothing reproduces the signature with this key. If everything else is consistent, the key is the
    // likeliest culprit; a tampered or truncated signature looks the same, hence low confidence.
    const consistent =
      auth !== null &&
      auth.algorithm === SIGNATURE_ALGORITHM &&
      auth.headers.join(' ') === SIGNED_HEADERS &&
      skewSeconds !== null &&
      (hostHeader === null || hostHeader === hostOf(url));
    if (consistent) {
      addCause('key-from-another-profile', 'low', evidence('no-variation', {}));
    }
  }
  causes.sort((a, b) => rank(b.confidence) - rank(a.confidence));

  // --- parts
  const expectedFraming = expectedFramings(variant, hasQuery)[0] as Framing;
  const expectedTarget = expectedFraming.query && hasQuery ? `${path}?${query}` : path;
  const expectedSignature = variants[gatewayVariants.find((v) => variants[v].matches) ?? (gatewayVariants[0] as SignatureVariant)].signature;
  const parts: DiagnosisPart[] = [];

  parts.push(
    keyId === null
      ? { part: 'keyId', status: 'missing', got: null, expected: expectedApiId, ...(parsed && !parsed.ok ? { note: parsed.detail } : {}) }
      : expectedApiId === null
        ? { part: 'keyId', status: baseMatch ? 'ok' : 'unknown', got: keyId, expected: null, note: note('no-api-id', {}) }
        : { part: 'keyId', status: keyIdDiffers ? 'differs' : 'ok', got: keyId, expected: expectedApiId },
  );
  if (auth === null) {
    parts.push({ part: 'algorithm', status: 'missing', got: null, expected: SIGNATURE_ALGORITHM });
    parts.push({ part: 'headers', status: 'missing', got: null, expected: SIGNED_HEADERS });
  } else {
    parts.push({
      part: 'algorithm',
      status: auth.algorithm === '' ? 'missing' : auth.algorithm === SIGNATURE_ALGORITHM ? 'ok' : 'differs',
      got: auth.algorithm === '' ? null : auth.algorithm,
      expected: SIGNATURE_ALGORITHM,
    });
    const headersGot = auth.headers.join(' ');
    parts.push({
      part: 'headers',
      status: headersGot === '' ? 'missing' : headersGot === SIGNED_HEADERS ? 'ok' : 'differs',
      got: headersGot === '' ? null : headersGot,
      expected: SIGNED_HEADERS,
    });
  }

  // path (line 2's request target)
  if (matched && (matched.path !== path || matched.framing.query !== expectedFraming.query)) {
    const got = matched.framing.query && hasQuery ? `${matched.path}?${query}` : matched.path;
    parts.push({ part: 'path', status: 'differs', got, expected: expectedTarget, note: note('inferred-target', {}) });
  } else {
    const methodNote = matched?.lowerMethod ? note('method-lower-case', { method: upperMethod(method).toLowerCase() }) : undefined;
    parts.push({
      part: 'path',
      status: baseMatch || matched ? 'ok' : 'unknown',
      got: baseMatch || matched ? expectedTarget : null,
      expected: expectedTarget,
      ...(methodNote ? { note: methodNote } : {}),
    });
  }

  // host
  if (matched && matched.host !== host) {
    parts.push({ part: 'host', status: 'differs', got: matched.host, expected: host, note: note('inferred-host', {}) });
  } else {
    const hostNote =
      hostHeader === null
        ? note('no-host-header', { host: hostOf(url) })
        : hostHeader !== hostOf(url)
          ? note('host-header-differs', { header: hostHeader, url: hostOf(url) })
          : undefined;
    parts.push({
      part: 'host',
      status: baseMatch || matched ? 'ok' : hostHeader !== null && hostHeader !== hostOf(url) ? 'differs' : 'unknown',
      got: baseMatch || matched ? host : hostHeader,
      expected: baseMatch || matched ? host : hostOf(url),
      ...(hostNote ? { note: hostNote } : {}),
    });
  }

  // date
  if (date === null) {
    parts.push({ part: 'date', status: 'missing', got: null, expected: formatHttpDate(now), note: note('no-date-header', {}) });
  } else if (skewSeconds === null) {
    parts.push({ part: 'date', status: 'differs', got: date, expected: formatHttpDate(now), note: note('date-not-http-date', {}) });
  } else if (matched && matched.date !== date) {
    parts.push({ part: 'date', status: 'differs', got: matched.date, expected: date, note: note('inferred-date', {}) });
  } else if (!within) {
    parts.push({
      part: 'date',
      status: 'differs',
      got: date,
      expected: formatHttpDate(now),
      note: note('date-outside', { kind: direction(skewSeconds), seconds: Math.abs(skewSeconds), window: windowSeconds }),
    });
  } else {
    parts.push({
      part: 'date',
      status: 'ok',
      got: date,
      expected: date,
      note: note('date-skew', { kind: skewSeconds === 0 ? 'in-step' : direction(skewSeconds), seconds: Math.abs(skewSeconds) }),
    });
  }

  // signature
  parts.push(
    sig === null
      ? { part: 'signature', status: 'missing', got: null, expected: expectedSignature }
      : { part: 'signature', status: baseMatch ? 'ok' : 'differs', got: sig, expected: expectedSignature },
  );

  return {
    valid: verdict.valid,
    verdict: verdict.reason,
    ...(verdict.detail !== undefined ? { detail: verdict.detail } : {}),
    parts,
    skew: { seconds: skewSeconds, windowSeconds, within },
    causes,
    variants,
    inferred,
  };
}

function rank(c: CauseConfidence): number {
  return c === 'high' ? 3 : c === 'medium' ? 2 : 1;
}

/** Which way a Date is off the gateway's clock (skew = Date − clock). */
function direction(skew: number): SkewDirection {
  return skew > 0 ? 'ahead' : 'behind';
}

interface SearchInput {
  apiId: string;
  method: string;
  query: string;
  hasQuery: boolean;
  host: string;
  path: string;
  date: string;
  url: URL;
  now: Date;
  variant: SignatureVariant | 'any';
  key: string;
  sig: string;
  candidateDates: readonly string[];
}

/**
 * Try candidates with up to two kinds of change (framing, host, path, method case, date) from the
 * gateway's string to sign; the first match with the fewest changes wins. A few hundred HMACs.
 */
function searchCandidates(
  s: SearchInput,
): { candidate: Candidate; stringToSign: string; changes: InferredChange[]; causes: Array<{ id: LikelyCause; evidence: Evidence }> } | null {
  const base = expectedFramings(s.variant, s.hasQuery);
  const allFramings: Framing[] = s.hasQuery
    ? [
        { trailing: false, query: false },
        { trailing: true, query: false },
        { trailing: false, query: true },
        { trailing: true, query: true },
      ]
    : [
        { trailing: false, query: false },
        { trailing: true, query: false },
      ];
  const framingAlts = allFramings.filter((f) => !base.some((b) => b.trailing === f.trailing && b.query === f.query));
  const lowerMethod = upperMethod(s.method).toLowerCase() !== upperMethod(s.method);
  const alts: Record<Exclude<Dim, 'framing'>, Alt[]> = {
    host: hostAlternatives(s.host, s.url),
    path: pathAlternatives(s.path),
    method: lowerMethod
      ? [{ value: 'lower', causes: ['method-case'], evidence: evidence('signed-method', { method: upperMethod(s.method).toLowerCase() }) }]
      : [],
    date: s.date === '' ? [] : dateAlternatives(s.date, s.candidateDates, s.now),
  };
  const dims: Dim[] = ['framing', 'host', 'path', 'method', 'date'];
  const seen = new Set<string>();

  const tryOne = (framing: Framing, changed: Partial<Record<Exclude<Dim, 'framing'>, Alt>>) => {
    const c: Candidate = {
      framing,
      host: changed.host?.value ?? s.host,
      path: changed.path?.value ?? s.path,
      lowerMethod: changed.method !== undefined,
      date: changed.date?.value ?? s.date,
    };
    const text = candidateString(s.apiId, s.method, s.query, c);
    if (seen.has(text)) return null;
    seen.add(text);
    if (hmac(s.key, text) !== s.sig) return null;
    return { c, text };
  };

  const describe = (framing: Framing | null, changed: Partial<Record<Exclude<Dim, 'framing'>, Alt>>, c: Candidate, text: string) => {
    const changes: InferredChange[] = [];
    const causes: Array<{ id: LikelyCause; evidence: Evidence }> = [];
    const ref = base[0] as Framing;
    if (framing) {
      // Compare with the nearest expected framing.
      const near = base.find((b) => b.query === framing.query) ?? base.find((b) => b.trailing === framing.trailing) ?? ref;
      changes.push({ dimension: 'framing', from: formOf(near, s.hasQuery), to: formOf(framing, s.hasQuery) });
      if (framing.trailing !== near.trailing) {
        causes.push({ id: 'trailing-line-break', evidence: evidence('trailing-line-break', { kind: framing.trailing ? 'added' : 'missing' }) });
      }
      if (framing.query !== near.query) {
        causes.push({ id: 'query-string-signed', evidence: evidence('query-string', { kind: framing.query ? 'added' : 'missing', query: `?${s.query}` }) });
      }
    }
    for (const d of ['host', 'path', 'method', 'date'] as const) {
      const alt = changed[d];
      if (!alt) continue;
      const from = d === 'host' ? s.host : d === 'path' ? s.path : d === 'date' ? s.date : upperMethod(s.method);
      const to = d === 'method' ? upperMethod(s.method).toLowerCase() : alt.value;
      changes.push({ dimension: d, from, to });
      for (const id of alt.causes) causes.push({ id, evidence: alt.evidence });
    }
    return { candidate: c, stringToSign: text, changes, causes };
  };

  type Option = { framing: Framing | null; changed: Partial<Record<Exclude<Dim, 'framing'>, Alt>> };
  const optionsFor = (dim: Dim): Option[] =>
    dim === 'framing' ? framingAlts.map((f) => ({ framing: f, changed: {} })) : alts[dim].map((a) => ({ framing: null, changed: { [dim]: a } }));

  const attempt = (o: Option) => {
    for (const f of o.framing ? [o.framing] : base) {
      const hit = tryOne(f, o.changed);
      if (hit) return describe(o.framing, o.changed, hit.c, hit.text);
    }
    return null;
  };

  // One change.
  for (const d of dims) {
    for (const o of optionsFor(d)) {
      const r = attempt(o);
      if (r) return r;
    }
  }
  // Two changes.
  for (let i = 0; i < dims.length; i++) {
    for (let j = i + 1; j < dims.length; j++) {
      for (const a of optionsFor(dims[i] as Dim)) {
        for (const b of optionsFor(dims[j] as Dim)) {
          const r = attempt({ framing: a.framing ?? b.framing, changed: { ...a.changed, ...b.changed } });
          if (r) return r;
        }
      }
    }
  }
  return null;
}
