// Every text the signing engine and the probes can emit is a code with parameters; its words are in
// the message catalog (common/messages), in both languages. This checks, for every code and every
// variant (`kind`) the types allow: a text exists in English and in Chinese, both use the same
// placeholders, every placeholder is a parameter of that code, and the rendered Chinese has no
// English sentence in it. The tables below are checked against the types: a new code or a new kind
// that is not listed here fails to compile.
import { describe, expect, it } from 'vitest';
import { codedArgs, MESSAGES } from '../../../common/messages';
import type { TransportErrorKind } from '../../../common/records';
import type {
  ClockProbeErrorParams,
  DiagnosisTextParams,
  ParseProblemParams,
  ParseWarningParams,
  VectorCheckErrorParams,
  VectorProblemCode,
} from '../../../common/signature-types';
import { translator } from '../../../main/i18n';

/** For each code, one sample of its parameters per variant. */
type Samples<P> = { [C in keyof P]: readonly P[C][] };
type KindOf<T> = T extends { kind: infer K } ? K : never;
/** The variants of a family that no sample shows; `never` when the table is complete. */
type MissingKinds<P, S extends Samples<P>> = { [C in keyof P]: Exclude<KindOf<P[C]>, KindOf<S[C][number]>> }[keyof P];
const complete = <M>(..._proof: [M] extends [never] ? [] : [missing: M]): void => undefined;

const dir = (kind: 'ahead' | 'behind') => ({ kind, seconds: 301, window: 300 });

const DIAGNOSIS = {
  'authorization-empty': [{}],
  'authorization-scheme': [{ scheme: 'Basic' }],
  'authorization-syntax': (['name-expected', 'equals-expected', 'unquoted', 'backslash', 'unterminated', 'duplicate', 'comma-expected'] as const).map(
    (kind) => ({
      kind,
      name: 'keyId',
      position: 12,
    }),
  ),
  'authorization-no-key-id': [{}],
  'authorization-no-signature': [{}],
  'authorization-signature-not-base64': [{}],
  'no-algorithm': [{}],
  'algorithm-unsupported': [{ algorithm: 'hmac-sha1' }],
  'headers-list': [{ got: 'date host', expected: '@request-target date host' }],
  'date-not-http-date': [{}],
  'clock-outside': [dir('ahead'), dir('behind')],
  'clock-near-edge': [dir('ahead'), dir('behind')],
  'trailing-line-break': [{ kind: 'added' }, { kind: 'missing' }],
  'query-string': [
    { kind: 'added', query: '?smsid=1' },
    { kind: 'missing', query: '?smsid=1' },
  ],
  'signed-host': (['url-host', 'without-port', 'port', 'other-host'] as const).map((kind) => ({
    kind,
    host: 'localhost:8080',
    base: '127.0.0.1:8080',
    port: '8080',
  })),
  'signed-path': (['without-slash', 'with-slash', 'decoded', 'escapes-lower', 'escapes-upper', 'without-prefix'] as const).map((kind) => ({
    kind,
    path: '/voice/vm',
    prefix: '/gw',
  })),
  'signed-method': [{ method: 'post' }],
  'signed-date': (['candidate', 'imf-fixdate', 'second-before', 'second-after'] as const).map((kind) => ({ kind, date: 'Sat, 21 Nov 2026 22:36:55 GMT' })),
  'key-id-differs': [{ keyId: 'C99999999', apiId: 'C80604386' }],
  'no-variation': [{}],
  'no-api-id': [{}],
  'inferred-target': [{}],
  'inferred-host': [{}],
  'inferred-date': [{}],
  'method-lower-case': [{ method: 'post' }],
  'no-host-header': [{ host: '127.0.0.1:8080' }],
  'host-header-differs': [{ header: 'voice.internal', url: '127.0.0.1:8080' }],
  'no-date-header': [{}],
  'date-skew': [
    { kind: 'in-step', seconds: 0 },
    { kind: 'ahead', seconds: 12 },
    { kind: 'behind', seconds: 12 },
  ],
  'date-outside': [dir('ahead'), dir('behind')],
} satisfies Samples<DiagnosisTextParams>;
complete<MissingKinds<DiagnosisTextParams, typeof DIAGNOSIS>>();

const PARSE_PROBLEM = {
  'not-text': [{}],
  'too-long': [{ length: 2_000_000, max: 1_048_576 }],
  empty: [{}],
  'not-a-request': [{ line: 1, text: 'hello' }],
  'not-a-header': [{ line: 3, text: 'hello' }],
  'header-name': [{ line: 3, name: 'X Y' }],
  method: [{ method: 'P@ST' }],
  'http-version': [{ version: 'HTTP/x' }],
  target: [{ target: 'voice/vm' }],
  'target-asterisk': [{}],
  'not-http-url': [{ url: 'ftp://a.example/' }],
  scheme: [{ scheme: 'ftp' }],
  'host-name': [{ host: 'a b' }],
  'url-from-host': [{ host: 'a', target: '/%' }],
  'default-url': [{ url: 'api.example' }],
  'no-host': [{}],
  'no-authority': [{}],
  'headers-only': [{}],
  'curl-cmd-exe': [{}],
  'curl-quote': [{ kind: 'single' }, { kind: 'double' }, { kind: 'ansi-c' }],
  'curl-backslash': [{}],
  'curl-escape': [{ escape: '\\x', position: 7 }],
  'curl-control-escape': [{}],
  'curl-option-value': [{ option: '-H' }],
  'curl-no-url': [{}],
  'curl-header': [{ header: 'X' }],
} satisfies Samples<ParseProblemParams>;
complete<MissingKinds<ParseProblemParams, typeof PARSE_PROBLEM>>();

const PARSE_WARNING = {
  'duplicate-header': [{ name: 'date' }],
  'no-http-version': [{}],
  'host-from-authority': [{}],
  'host-from-url': [{ origin: 'https://api.example.com' }],
  'scheme-assumed': [{}],
  'method-assumed': [{}],
  'text-after-curl': [{}],
  'cookie-file': [{ option: '-b', file: 'jar.txt' }],
  'basic-auth': [{ option: '-u' }],
  'unknown-options': [{ options: '--frobnicate, -Z' }],
  'joined-lines': [{}],
  'curl-default-url': [{}],
  'several-urls': [{ count: 2 }],
  'url-scheme-assumed': [{ kind: 'http' }, { kind: 'https' }],
  'header-removed': [{ name: 'X-Gone' }],
  'body-unavailable': (['file', 'stdin', 'json-file', 'urlencode-file', 'form', 'upload'] as const).map((kind) => ({ kind, file: 'body.json' })),
} satisfies Samples<ParseWarningParams>;
complete<MissingKinds<ParseWarningParams, typeof PARSE_WARNING>>();

const VECTOR_PROBLEMS = {
  'invalid-json': [{}],
  'not-an-object': [{}],
  format: [{}],
  version: [{}],
  'unknown-field': [{}],
  description: [{}],
  'vectors-not-array': [{}],
  'too-many': [{}],
  'vector-not-object': [{}],
  name: [{}],
  variant: [{}],
  'input-not-object': [{}],
  'api-id': [{}],
  'api-id-characters': [{}],
  'key-ref': [{}],
  'key-ref-with-key': [{}],
  'api-key-empty': [{}],
  'api-key-type': [{}],
  method: [{}],
  'url-type': [{}],
  url: [{}],
  'date-type': [{}],
  date: [{}],
  'expected-not-object': [{}],
  signature: [{}],
  'string-to-sign-type': [{}],
  'authorization-type': [{}],
  authorization: [{}],
} satisfies Samples<Record<VectorProblemCode, Record<string, never>>>;

const VECTOR_CHECK = {
  'key-missing': [{ ref: 'profile:Staging-EU' }],
  'cannot-sign': [{}],
} satisfies Samples<VectorCheckErrorParams>;

const TRANSPORT_KINDS = [
  'dns',
  'refused',
  'connect-timeout',
  'tls',
  'timeout',
  'reset',
  'aborted',
  'too-large',
  'network',
] as const satisfies readonly TransportErrorKind[];
const CLOCK = {
  'no-date-header': [{}],
  'bad-date-header': [{ value: 'yesterday' }],
  timeout: [{ ms: 5000 }],
  transport: TRANSPORT_KINDS.map((kind) => ({ kind })),
} satisfies Samples<ClockProbeErrorParams>;
complete<MissingKinds<ClockProbeErrorParams, typeof CLOCK>>();

const FAMILIES: Array<{ section: string; samples: Record<string, readonly object[]> }> = [
  { section: 'diagnosis', samples: DIAGNOSIS },
  { section: 'parse.problem', samples: PARSE_PROBLEM },
  { section: 'parse.warning', samples: PARSE_WARNING },
  { section: 'vectors.problem', samples: VECTOR_PROBLEMS },
  { section: 'vectors.check', samples: VECTOR_CHECK },
  { section: 'clock', samples: CLOCK },
];

type Catalog = (typeof MESSAGES)['en'];
function lookup(catalog: Catalog, key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], catalog);
}

/** The raw text an i18next lookup finds: the variant `code_kind` when it exists, else the code's own. */
function rawText(catalog: Catalog, section: string, code: string, params: object): { key: string; text: unknown } {
  const kind = (params as { kind?: unknown }).kind;
  if (typeof kind === 'string') {
    const variant = `${section}.${code}_${kind}`;
    const text = lookup(catalog, variant);
    if (text !== undefined) return { key: variant, text };
  }
  return { key: `${section}.${code}`, text: lookup(catalog, `${section}.${code}`) };
}

const placeholders = (text: string): string[] => [...new Set([...text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((m) => m[1] as string))].sort();

const CJK = /[\u3400-\u9fff]/;
/** Three English words in a row: a sentence, not a protocol token. */
const ENGLISH_SENTENCE = /\b[a-z]{2,}\s+[a-z]{2,}\s+[a-z]{2,}\b/i;

describe('the message catalog has every text of the signing engine and the probes', () => {
  for (const { section, samples } of FAMILIES) {
    for (const [code, list] of Object.entries(samples)) {
      for (const params of list) {
        const label = `${section}.${code}${'kind' in params ? `_${String(params.kind)}` : ''}`;
        it(`${label}: in both languages, with the same placeholders, all of them parameters`, () => {
          const en = rawText(MESSAGES.en, section, code, params);
          const zh = rawText(MESSAGES['zh-CN'], section, code, params);
          expect(typeof en.text, `en ${en.key}`).toBe('string');
          expect(typeof zh.text, `zh-CN ${zh.key}`).toBe('string');
          expect(zh.key).toBe(en.key);
          expect(placeholders(zh.text as string)).toEqual(placeholders(en.text as string));
          for (const name of placeholders(en.text as string)) expect(Object.keys(params), `${en.key} uses {{${name}}}`).toContain(name);

          const sayEn = translator('en')(...codedArgs(section, { code, params })) as string;
          const sayZh = translator('zh-CN')(...codedArgs(section, { code, params })) as string;
          for (const said of [sayEn, sayZh]) {
            expect(said).not.toContain('{{');
            expect(said).not.toContain('$t(');
            expect(said).not.toBe(en.key);
          }
          expect(sayEn).not.toMatch(CJK);
          expect(sayZh).toMatch(CJK);
          // The Chinese words themselves (the parameters are protocol tokens and values, whatever their language).
          expect((zh.text as string).replace(/\{\{[^}]*\}\}/g, '·')).not.toMatch(ENGLISH_SENTENCE);
        });
      }
    }
  }

  it('has no text for a code the engine cannot emit (no stale keys in these sections)', () => {
    for (const { section, samples } of FAMILIES) {
      for (const lang of ['en', 'zh-CN'] as const) {
        const node = lookup(MESSAGES[lang], section) as Record<string, unknown>;
        for (const key of Object.keys(node)) {
          const [code, kind] = key.split('_') as [string, string | undefined];
          expect(Object.keys(samples), `${lang} ${section}.${key}`).toContain(code);
          if (kind !== undefined)
            expect(
              (samples[code] ?? []).map((p) => (p as { kind?: string }).kind),
              `${lang} ${section}.${key}`,
            ).toContain(kind);
        }
      }
    }
  });
});
