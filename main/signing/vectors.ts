/**
 * Signature test vectors: export the workbench's current case, import a file and check every
 * vector. The file format is documented in docs/signature-test-vectors.md.
 *
 * Keys in vector files are test keys by nature. A case whose key came from a profile is exported
 * WITHOUT the key (`"apiKey": null, "keyRef": "profile:<name>"`); such a vector is checked only when
 * the caller supplies that key (resolveKey).
 */
import { parseAuthorization } from './authorization';
import { parseHttpDate } from './http-date';
import { isSignatureVariant, type SignatureVariant } from './scheme';
import { signRequest, type SignInput, type SignSteps } from './sign';
import type {
  SignatureVectorInput,
  SignatureVector,
  SignatureVectorFile,
  VectorKeySource,
  VectorFileError,
  ParseVectorFileResult,
  VectorField,
  VectorCheck,
  VectorProblem,
  VectorProblemCode,
} from '../../common/signature-types';
export type {
  SignatureVectorInput,
  SignatureVectorExpected,
  SignatureVector,
  SignatureVectorFile,
  VectorKeySource,
  VectorFileError,
  ParseVectorFileResult,
  VectorField,
  VectorCheck,
  VectorCheckError,
  VectorProblem,
  VectorProblemCode,
} from '../../common/signature-types';

import { VECTOR_FILE_FORMAT, VECTOR_FILE_VERSION } from '../../common/signature-types';
export { VECTOR_FILE_FORMAT, VECTOR_FILE_VERSION };
/** More than this many vectors in one file is refused (a vector file, not a data dump). */
export const MAX_VECTORS = 10_000;

export const PROFILE_KEY_REF_PREFIX = 'profile:';

/**
 * The current case as a vector. `input` is what was signed (as given to signRequest); `steps` its
 * result. With a profile's key the vector carries `"apiKey": null` and `"keyRef": "profile:<name>"`:
 * the profile's key is never written. Throws TypeError when `steps` was not computed from `input`
 * (recomputed here to be sure) or when the profile name is empty.
 */
export function exportVector(
  steps: SignSteps,
  input: Pick<SignInput, 'apiId' | 'apiKey' | 'method' | 'url'> & { date?: string; name?: string; description?: string },
  keySource: VectorKeySource,
): SignatureVector {
  if (keySource.kind === 'profile' && (typeof keySource.profile !== 'string' || keySource.profile.trim() === '')) {
    throw new TypeError('exportVector: the profile name is empty');
  }
  if (input.date !== undefined && input.date !== steps.date) throw new TypeError('exportVector: the steps were signed with another date');
  const again = signRequest({ apiId: input.apiId, apiKey: input.apiKey, method: input.method, url: input.url, date: steps.date, variant: steps.variant });
  if (again.signature !== steps.signature || again.stringToSign !== steps.stringToSign) {
    throw new TypeError('exportVector: the steps were not computed from this input');
  }
  const vectorInput: SignatureVectorInput =
    keySource.kind === 'profile'
      ? { apiId: input.apiId, apiKey: null, keyRef: PROFILE_KEY_REF_PREFIX + keySource.profile, method: input.method, url: input.url, date: steps.date }
      : { apiId: input.apiId, apiKey: input.apiKey, method: input.method, url: input.url, date: steps.date };
  return {
    name: input.name?.trim() || defaultName(steps),
    ...(input.description ? { description: input.description } : {}),
    variant: steps.variant,
    input: vectorInput,
    expected: { stringToSign: steps.stringToSign, signature: steps.signature, authorization: steps.authorization },
  };
}

function defaultName(steps: SignSteps): string {
  return `${steps.variant}, ${steps.method} ${steps.host}${steps.path}`;
}

/** A vector file's text (pretty-printed JSON, trailing newline). */
export function serializeVectorFile(vectors: SignatureVector[], description?: string): string {
  const file: SignatureVectorFile = {
    format: VECTOR_FILE_FORMAT,
    version: VECTOR_FILE_VERSION,
    ...(description ? { description } : {}),
    vectors,
  };
  return JSON.stringify(file, null, 2) + '\n';
}

const METHOD_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const SIGNATURE_BASE64 = /^[A-Za-z0-9+/]{43}=$/; // 32 bytes
const MAX_PROBLEMS = 50;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A path into the file for a field name: `vectors[2].input.date`, `vectors[0]["odd key"]`. */
function fieldPath(at: string, name: string): string {
  if (/^[A-Za-z_$][\w$]*$/.test(name)) return at === '' ? name : `${at}.${name}`;
  return `${at}[${JSON.stringify(name.length > 40 ? name.slice(0, 40) + '…' : name)}]`;
}

/** Parse and validate a vector file. Unknown fields are refused (they are usually typos). */
export function parseVectorFile(text: string): ParseVectorFileResult {
  const problems: VectorProblem[] = [];
  const bad = (error: VectorFileError, code: VectorProblemCode, where: string | null): ParseVectorFileResult => ({
    ok: false,
    error,
    problems: [{ where, code }],
    more: 0,
  });
  let data: unknown;
  try {
    data = JSON.parse(typeof text === 'string' ? text.replace(/^\uFEFF/, '') : String(text));
  } catch {
    return bad('invalid-json', 'invalid-json', null);
  }
  if (!isRecord(data)) return bad('wrong-format', 'not-an-object', null);
  if (data.format !== VECTOR_FILE_FORMAT) return bad('wrong-format', 'format', 'format');
  if (data.version !== VECTOR_FILE_VERSION) return bad('unsupported-version', 'version', 'version');
  for (const k of Object.keys(data)) {
    if (!['format', 'version', 'description', 'vectors'].includes(k)) problems.push({ where: fieldPath('', k), code: 'unknown-field' });
  }
  if (data.description !== undefined && typeof data.description !== 'string') problems.push({ where: 'description', code: 'description' });
  if (!Array.isArray(data.vectors)) {
    problems.push({ where: 'vectors', code: 'vectors-not-array' });
    return { ok: false, error: 'invalid-vector', problems, more: 0 };
  }
  if (data.vectors.length > MAX_VECTORS) return bad('too-many', 'too-many', 'vectors');

  const vectors: SignatureVector[] = [];
  data.vectors.forEach((raw: unknown, index: number) => {
    const v = validateVector(raw, `vectors[${index}]`, problems);
    if (v) vectors.push(v);
  });
  if (problems.length > 0) {
    return { ok: false, error: 'invalid-vector', problems: problems.slice(0, MAX_PROBLEMS), more: Math.max(0, problems.length - MAX_PROBLEMS) };
  }
  return { ok: true, vectors, ...(typeof data.description === 'string' ? { description: data.description } : {}) };
}

function validateVector(raw: unknown, at: string, problems: VectorProblem[]): SignatureVector | null {
  const start = problems.length;
  if (!isRecord(raw)) {
    problems.push({ where: at, code: 'vector-not-object' });
    return null;
  }
  const p = (field: string, code: VectorProblemCode): void => {
    problems.push({ where: `${at}.${field}`, code });
  };
  for (const k of Object.keys(raw))
    if (!['name', 'description', 'variant', 'input', 'expected'].includes(k)) problems.push({ where: fieldPath(at, k), code: 'unknown-field' });
  if (typeof raw.name !== 'string' || raw.name.trim() === '') p('name', 'name');
  if (raw.description !== undefined && typeof raw.description !== 'string') p('description', 'description');
  if (!isSignatureVariant(raw.variant)) p('variant', 'variant');

  const input = raw.input;
  if (!isRecord(input)) p('input', 'input-not-object');
  else {
    for (const k of Object.keys(input)) {
      if (!['apiId', 'apiKey', 'keyRef', 'method', 'url', 'date'].includes(k)) problems.push({ where: fieldPath(`${at}.input`, k), code: 'unknown-field' });
    }
    if (typeof input.apiId !== 'string' || input.apiId === '') p('input.apiId', 'api-id');
    else if (/[\r\n"]/.test(input.apiId)) p('input.apiId', 'api-id-characters');
    if (input.apiKey === null) {
      if (typeof input.keyRef !== 'string' || !input.keyRef.startsWith(PROFILE_KEY_REF_PREFIX) || input.keyRef.length === PROFILE_KEY_REF_PREFIX.length) {
        p('input.keyRef', 'key-ref');
      }
    } else if (typeof input.apiKey === 'string') {
      if (input.apiKey === '') p('input.apiKey', 'api-key-empty');
      if (input.keyRef !== undefined) p('input.keyRef', 'key-ref-with-key');
    } else {
      p('input.apiKey', 'api-key-type');
    }
    if (typeof input.method !== 'string' || !METHOD_TOKEN.test(input.method)) p('input.method', 'method');
    if (typeof input.url !== 'string') p('input.url', 'url-type');
    else {
      let ok: boolean;
      try {
        const u = new URL(input.url);
        ok = u.protocol === 'http:' || u.protocol === 'https:';
      } catch {
        ok = false;
      }
      if (!ok) p('input.url', 'url');
    }
    if (typeof input.date !== 'string') p('input.date', 'date-type');
    else if (parseHttpDate(input.date) === null) p('input.date', 'date');
  }

  const expected = raw.expected;
  if (!isRecord(expected)) p('expected', 'expected-not-object');
  else {
    for (const k of Object.keys(expected)) {
      if (!['stringToSign', 'signature', 'authorization'].includes(k)) problems.push({ where: fieldPath(`${at}.expected`, k), code: 'unknown-field' });
    }
    if (typeof expected.signature !== 'string' || !SIGNATURE_BASE64.test(expected.signature)) p('expected.signature', 'signature');
    if (expected.stringToSign !== undefined && typeof expected.stringToSign !== 'string') p('expected.stringToSign', 'string-to-sign-type');
    if (expected.authorization !== undefined) {
      if (typeof expected.authorization !== 'string') p('expected.authorization', 'authorization-type');
      else if (!parseAuthorization(expected.authorization).ok) p('expected.authorization', 'authorization');
    }
  }
  if (problems.length > start) return null;
  const i = input as Record<string, unknown>;
  const e = expected as Record<string, unknown>;
  return {
    name: raw.name as string,
    ...(typeof raw.description === 'string' ? { description: raw.description } : {}),
    variant: raw.variant as SignatureVariant,
    input: {
      apiId: i.apiId as string,
      apiKey: i.apiKey as string | null,
      ...(typeof i.keyRef === 'string' ? { keyRef: i.keyRef } : {}),
      method: i.method as string,
      url: i.url as string,
      date: i.date as string,
    },
    expected: {
      ...(typeof e.stringToSign === 'string' ? { stringToSign: e.stringToSign } : {}),
      signature: e.signature as string,
      ...(typeof e.authorization === 'string' ? { authorization: e.authorization } : {}),
    },
  };
}

/** The keyRefs a set of vectors needs, each once (to resolve profile keys before checkVectors). */
export function vectorKeyRefs(vectors: readonly SignatureVector[]): string[] {
  return [...new Set(vectors.flatMap((v) => (v.input.apiKey === null && v.input.keyRef ? [v.input.keyRef] : [])))];
}

/**
 * Check every vector with the signing engine. A vector whose key is a keyRef is checked only when
 * `resolveKey` returns its key; otherwise it fails with `needsKey`. Never throws for a bad vector.
 */
export function checkVectors(
  vectors: readonly SignatureVector[],
  resolveKey?: (keyRef: string, vector: SignatureVector) => string | undefined | null,
): VectorCheck[] {
  return vectors.map((v, index): VectorCheck => {
    const head = { index, name: v.name, variant: v.variant };
    let key = v.input.apiKey;
    if (key === null) {
      const ref = v.input.keyRef ?? '';
      const resolved = resolveKey?.(ref, v);
      if (typeof resolved !== 'string' || resolved === '') {
        return { ...head, pass: false, mismatches: [], actual: null, error: { code: 'key-missing', params: { ref } }, needsKey: ref };
      }
      key = resolved;
    }
    let steps: SignSteps;
    try {
      steps = signRequest({ apiId: v.input.apiId, apiKey: key, method: v.input.method, url: v.input.url, date: v.input.date, variant: v.variant });
    } catch {
      return { ...head, pass: false, mismatches: [], actual: null, error: { code: 'cannot-sign', params: {} } };
    }
    const actual = { stringToSign: steps.stringToSign, signature: steps.signature, authorization: steps.authorization };
    const mismatches: VectorField[] = [];
    if (v.expected.stringToSign !== undefined && v.expected.stringToSign !== actual.stringToSign) mismatches.push('stringToSign');
    if (v.expected.signature !== actual.signature) mismatches.push('signature');
    if (v.expected.authorization !== undefined && v.expected.authorization !== actual.authorization) mismatches.push('authorization');
    return { ...head, pass: mismatches.length === 0, mismatches, actual };
  });
}
