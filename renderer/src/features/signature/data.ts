// What the Signature screen asks main: the string to sign and the signature (use-build.ts), the
// gateway's clock and which variant it accepts, test vectors written and checked, and a pasted
// request read and diagnosed. A failure is the query's or mutation's error (main's, or `internal`).
import { useMutation, useQuery } from '@tanstack/react-query';
import type { DiagnosisView, InputOf } from '../../../../common/contract';
import type { CapturedParseError, CapturedRequest, ParseProblem, SignatureVariant } from '../../../../common/signature-types';
import { ask } from '../../app/query';

/** The variant a pasted request is checked against (or either). */
export type GatewayVariant = SignatureVariant | 'any';

/** The keys of what the Signature screen reads. */
export const signatureKeys = {
  all: ['signature'] as const,
  /** The signature computed for one settled set of inputs (an id per change of the inputs). */
  compute: (id: string) => [...signatureKeys.all, 'compute', id] as const,
  clock: (profileId: string | null) => [...signatureKeys.all, 'clock', profileId] as const,
};

/** The gateway's clock seen through a profile: read when shown, then every `refreshMs` while live. */
export function useGatewayClock(profileId: string | null, { active, live, refreshMs }: { active: boolean; live: boolean; refreshMs: number }) {
  return useQuery({
    queryKey: signatureKeys.clock(profileId),
    queryFn: () => ask((api) => api.signature.probeClock({ profileId: profileId! })),
    enabled: active && profileId !== null,
    refetchInterval: live ? refreshMs : false,
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: live ? 'always' : false,
    refetchOnMount: 'always',
    staleTime: 0,
  });
}

/** Asks the gateway which variant it accepts: an action, not a reading (each run asks again and stores its exchanges). */
export function useProbeVariant(profileId: string) {
  return useMutation({ mutationFn: () => ask((api) => api.signature.probeVariant({ profileId })) });
}

/** Writes a test vector; `onWritten` gets its JSON. */
export function useExportVector(fileName: (name: string) => string, onWritten: (written: { json: string; fileName: string }) => void) {
  return useMutation({
    mutationFn: async (input: InputOf<'signature.exportVector'>) => {
      const { json } = await ask((api) => api.signature.exportVector(input));
      return { json, fileName: fileName(input.name) };
    },
    onSuccess: onWritten,
  });
}

/** Checks a file of test vectors against this implementation; `expected` reads what the file itself expects. */
export function useCheckVectors<E>(expected: (source: string) => E) {
  return useMutation({
    mutationFn: async (source: string) => ({ value: await ask((api) => api.signature.checkVectors({ text: source })), expected: expected(source) }),
  });
}

export type DiagnoseOutcome =
  | { kind: 'parse-error'; error: CapturedParseError; detail: ParseProblem }
  | { kind: 'diagnosed'; request: CapturedRequest; diagnosis: DiagnosisView; comparedWith: string; variant: GatewayVariant };

export type DiagnoseInput = { text: string; defaultUrl: string; variant: GatewayVariant; now: string; key: { profileId: string } | { adHoc: string } };

/** Reads the paste (signature.parseRequest), then checks it with the key (signature.diagnose). */
async function readAndDiagnose({ text, defaultUrl, variant, now, key }: DiagnoseInput): Promise<DiagnoseOutcome> {
  const parsed = await ask((api) => api.signature.parseRequest({ text, ...(defaultUrl ? { defaults: { url: defaultUrl } } : {}) }));
  if (!parsed.ok) return { kind: 'parse-error', error: parsed.error, detail: parsed.detail };
  const request = parsed.value;
  const h = request.headers;
  const diagnosis = await ask((api) =>
    api.signature.diagnose({
      method: request.method,
      url: request.url,
      ...(h.host ? { host: h.host } : {}),
      date: h.date ?? null,
      authorization: h.authorization ?? null,
      key,
      variant,
      now,
    }),
  );
  return { kind: 'diagnosed', request, diagnosis, comparedWith: now, variant };
}

/** Reads and diagnoses a pasted request: the answer stays until the next one (or a reset). */
export function useDiagnose() {
  return useMutation({ mutationFn: readAndDiagnose });
}
