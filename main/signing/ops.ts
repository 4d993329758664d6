// The signature slice of the handler table: signing, verifying and diagnosing a request, test
// vectors, and probing a provider's clock and signature variant. Keys stay in main.
import type { signatureOps } from '../../common/contract/signature';
import type { Clock } from '../clock';
import { fail, invalid } from '../errors';
import type { Ops } from '../ops';
import type { ProfileService } from '../profiles/profile-service';
import { unstorableKey } from '../secrets/api-key';
import type { ExchangeRepository } from '../store';
import { probeServerClock, probeSignatureVariant } from '../voice/probes';
import {
  checkVectors,
  diagnoseSignature,
  exportVector,
  parseCapturedRequest,
  parseHttpDate,
  parseVectorFile,
  serializeVectorFile,
  signRequest,
  vectorKeyRefs,
  verifyRequest,
} from './index';

type Key = { profileId: string } | { adHoc: string };

export function signatureOpsOf(d: {
  profiles: Pick<ProfileService, 'record' | 'endpoint' | 'view' | 'keysByReference'>;
  exchanges: Pick<ExchangeRepository, 'insert'>;
  clock: Clock;
}): Ops<typeof signatureOps> {
  const { profiles, clock } = d;
  const keyFor = async (key: Key) => ('adHoc' in key ? key.adHoc : (await profiles.endpoint(key.profileId)).apiKey);
  /** A typed key is used as given (any non-empty key: a signature debugger); one Callout would not store is said. */
  const keyNote = (key: Key) => ('adHoc' in key ? unstorableKey(key.adHoc) : null);
  const httpDate = (value: string | undefined, path: string): Date | undefined => {
    if (value === undefined) return undefined;
    const date = parseHttpDate(value);
    if (!date) throw invalid([path, 'date-invalid']);
    return date;
  };

  return {
    'signature.compute': async (i) => {
      httpDate(i.date, 'date');
      return {
        ...signRequest({ apiId: i.apiId, apiKey: await keyFor(i.key), method: i.method, url: i.url, date: i.date, variant: i.variant }),
        keyNote: keyNote(i.key),
      };
    },
    'signature.diagnose': async (i) => {
      const expectedApiId = i.expectedApiId ?? ('profileId' in i.key ? profiles.record(i.key.profileId).apiId : undefined);
      const diagnosis = diagnoseSignature({
        method: i.method,
        url: i.url,
        host: i.host,
        date: i.date ?? undefined,
        authorization: i.authorization ?? undefined,
        apiKey: await keyFor(i.key),
        expectedApiId,
        variant: i.variant,
        now: httpDate(i.now, 'now'),
      });
      return { ...diagnosis, keyNote: keyNote(i.key) };
    },
    'signature.parseRequest': async ({ text, defaults }) => parseCapturedRequest(text, defaults),
    'signature.exportVector': async (i) => {
      if (!parseHttpDate(i.date)) throw invalid(['date', 'date-invalid']);
      const apiKey = await keyFor(i.key);
      const steps = signRequest({ apiId: i.apiId, apiKey, method: i.method, url: i.url, date: i.date, variant: i.variant });
      const source = 'profileId' in i.key ? ({ kind: 'profile', profile: profiles.record(i.key.profileId).name } as const) : ({ kind: 'adhoc' } as const);
      return { json: serializeVectorFile([exportVector(steps, { apiId: i.apiId, apiKey, method: i.method, url: i.url, date: i.date, name: i.name }, source)]) };
    },
    'signature.checkVectors': async ({ text }) => {
      const parsed = parseVectorFile(text);
      if (!parsed.ok) {
        // Every problem, each at its place in the file (`vectors[2].input.date`); its words are the catalog's vectors.problem.<code>.
        const issues = parsed.problems.map((p) => ({ path: p.where ?? 'text', message: p.code }));
        throw fail('vector-file-invalid', { kind: parsed.error, where: parsed.problems[0]?.where ?? null }, issues);
      }
      // Keys named by reference ("profile:<name>") come from that profile, inside main.
      const { keys, missing } = await profiles.keysByReference(vectorKeyRefs(parsed.vectors));
      return { results: checkVectors(parsed.vectors, (ref) => keys.get(ref)), missingKeys: missing };
    },
    'signature.probeClock': async ({ profileId }) => {
      const record = profiles.record(profileId);
      const { baseUrl } = await profiles.view(record);
      return probeServerClock(baseUrl, { timeoutMs: record.totalTimeoutMs, clock });
    },
    'signature.probeVariant': async ({ profileId }) => {
      const probe = await probeSignatureVariant(await profiles.endpoint(profileId), { clock });
      for (const r of probe.results) if (r.exchange) d.exchanges.insert(r.exchange, { profile: profileId });
      return { accepted: probe.accepted, results: probe.results.map(({ exchange: _exchange, ...rest }) => rest) };
    },
    'signature.verify': async (i) => {
      const expectedApiId = i.expectedApiId ?? ('profileId' in i.key ? profiles.record(i.key.profileId).apiId : undefined);
      const r = verifyRequest({
        method: i.method,
        url: i.url,
        host: i.host,
        date: i.date,
        authorization: i.authorization,
        apiKey: await keyFor(i.key),
        expectedApiId,
        now: httpDate(i.now, 'now'),
        variant: i.variant,
      });
      return {
        valid: r.valid,
        reason: r.reason,
        keyId: r.keyId,
        expectedApiId: expectedApiId ?? null,
        skewSeconds: r.skewSeconds,
        variant: r.variant,
        keyNote: keyNote(i.key),
      };
    },
  };
}
