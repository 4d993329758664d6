// The Build case: its inputs, and the steps main computes from them (signature.compute, a query
// per set of inputs). The key never comes here: a profile's key is named by the profile's id and
// used in main; a typed key is passed through for this session's calls only, and never becomes part
// of a query key (a number stands for it), nor outlives the screen (the queries are dropped as soon
// as nothing shows them).
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { IpcError, ProfileView } from '../../../../common/contract';
import type { SignatureVariant } from '../../../../common/signature-types';
import type { SignStepsView } from '../../../../common/contract';
import { ask } from '../../app/query';
import { signatureKeys } from './data';
import { keyFor, type KeyState } from './KeyBar';
import { httpDateNow, httpUrl, presetBody, PRESETS, presetUrl, type PresetId } from './request-text';

export type DateMode = 'now' | 'fixed';

export interface BuildInputs {
  url: string;
  method: 'POST' | 'GET';
  dateMode: DateMode;
  fixedDate: string;
  apiId: string;
  variant: SignatureVariant;
  /** The preset the URL came from; null once the URL is edited by hand. */
  preset: PresetId | null;
  /** The request's body as sent (not signed): the voice presets' JSON, or what the tester types. */
  body: string;
}

export type FieldProblem = 'url-invalid' | 'api-id-required' | 'api-id-chars' | 'date-invalid' | 'date-required';
export type BuildField = 'url' | 'apiId' | 'date';

export interface BuildState {
  inputs: BuildInputs;
  update: (patch: Partial<BuildInputs>) => void;
  applyPreset: (id: PresetId) => void;
  steps: SignStepsView | null;
  fields: Partial<Record<BuildField, FieldProblem>>;
  keyProblem: 'no-profile' | 'no-profile-key' | 'no-typed-key' | null;
  error: IpcError | null;
  computing: boolean;
}

const INITIAL: BuildInputs = { url: '', method: 'POST', dateMode: 'now', fixedDate: '', apiId: '', variant: 'spec', preset: null, body: '' };

function fieldOf(path: string): BuildField | null {
  if (path === 'url') return 'url';
  if (path === 'apiId') return 'apiId';
  if (path === 'date') return 'date';
  return null;
}

/** Waits this long after the last change of the inputs before asking main (typing a URL is many changes). */
const SETTLE_MS = 150;

/** `value` once its `id` has stayed the same for `ms`; the first value at once. */
function useSettled<T>(value: T, id: string, ms: number): { value: T; id: string } {
  const [settled, setSettled] = useState({ value, id });
  useEffect(() => {
    if (id === settled.id) return;
    const timer = window.setTimeout(() => setSettled({ value, id }), ms);
    return () => window.clearTimeout(timer);
  }, [id]);
  return settled;
}

type ComputeInput = {
  apiId: string;
  method: 'POST' | 'GET';
  url: string;
  date: string;
  variant: SignatureVariant;
  key: { profileId: string } | { adHoc: string };
};

/**
 * The Build case. `active`: the Build tab is shown (a live date is re-signed every second only
 * then, and only while the window is visible).
 */
export function useBuild(keyState: KeyState, profile: ProfileView | null, active: boolean): BuildState {
  const [inputs, setInputs] = useState<BuildInputs>(INITIAL);
  const [tick, setTick] = useState(0);

  const update = useCallback((patch: Partial<BuildInputs>) => setInputs((i) => ({ ...i, ...patch })), []);

  const applyPreset = useCallback(
    (id: PresetId) => {
      const preset = PRESETS.find((p) => p.id === id);
      if (!preset) return;
      const url = presetUrl(preset, profile?.baseUrl ?? null);
      setInputs((i) => {
        const apiId = preset.group === 'voice' && profile ? profile.apiId : i.apiId;
        return { ...i, preset: id, method: preset.method, url: url ?? i.url, apiId, body: presetBody(id, apiId) };
      });
    },
    [profile],
  );

  // First profile known: start from its send operation. A voice preset follows the profile.
  const profileKey = profile ? `${profile.id}|${profile.baseUrl}|${profile.apiId}` : '';
  useEffect(() => {
    if (!profile) return;
    setInputs((i) => {
      if (i.url === '' && i.apiId === '') {
        // The profile's signing variant, when it has one, is the starting variant.
        const variant = profile.signing === 'apisix' ? 'apisix' : 'spec';
        return {
          ...i,
          preset: 'voice-send',
          url: presetUrl(PRESETS[0]!, profile.baseUrl) ?? '',
          apiId: profile.apiId,
          variant,
          body: presetBody('voice-send', profile.apiId),
        };
      }
      const preset = PRESETS.find((p) => p.id === i.preset);
      if (preset?.group === 'voice') return { ...i, url: presetUrl(preset, profile.baseUrl) ?? i.url, apiId: profile.apiId };
      return i;
    });
  }, [profileKey]);

  // A live date: re-sign every second while shown.
  useEffect(() => {
    if (inputs.dateMode !== 'now' || !active) return;
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible') setTick((n) => n + 1);
    }, 1000);
    return () => window.clearInterval(timer);
  }, [inputs.dateMode, active]);

  const key = keyFor(keyState, profile);
  // A number for each typed key (the query key names it by that number, never by the key itself).
  const typed = key.ok && 'adHoc' in key.key ? key.key.adHoc : null;
  const typedSerial = useRef({ key: null as string | null, n: 0 });
  if (typed !== typedSerial.current.key) typedSerial.current = { key: typed, n: typedSerial.current.n + 1 };
  const keyId = key.ok ? ('profileId' in key.key ? `profile:${key.key.profileId}` : `typed:${typedSerial.current.n}`) : null;

  // What can be said without main: the fields' own problems.
  const local = useMemo(() => {
    const problems: BuildState['fields'] = {};
    if (!httpUrl(inputs.url)) problems.url = 'url-invalid';
    const apiId = inputs.apiId.trim();
    if (apiId === '') problems.apiId = 'api-id-required';
    else if (/["\r\n]/.test(apiId)) problems.apiId = 'api-id-chars';
    if (inputs.dateMode === 'fixed' && inputs.fixedDate.trim() === '') problems.date = 'date-required';
    return problems;
  }, [inputs.url, inputs.apiId, inputs.dateMode, inputs.fixedDate]);

  // The live date, renewed every `tick`.
  const liveDate = useMemo(() => httpDateNow(), [tick, inputs.dateMode]);
  const request: ComputeInput | null =
    Object.keys(local).length > 0 || !key.ok
      ? null
      : {
          apiId: inputs.apiId.trim(),
          method: inputs.method,
          url: inputs.url.trim(),
          date: inputs.dateMode === 'fixed' ? inputs.fixedDate.trim() : liveDate,
          variant: inputs.variant,
          key: key.key,
        };
  const requestId = request ? JSON.stringify([request.apiId, request.method, request.url, request.date, request.variant, keyId]) : '';
  const settled = useSettled(request, requestId, SETTLE_MS);

  const query = useQuery({
    queryKey: signatureKeys.compute(settled.id),
    queryFn: () => ask((api) => api.signature.compute(settled.value as ComputeInput)),
    enabled: settled.value !== null,
    // The steps of the last inputs stay on screen while the next ones are computed.
    placeholderData: keepPreviousData,
    // Same inputs, same steps; and nothing of a typed key is kept once the screen is left.
    staleTime: Infinity,
    gcTime: 0,
  });

  if (request === null) {
    return { inputs, update, applyPreset, steps: null, fields: local, keyProblem: key.ok ? null : key.reason, error: null, computing: false };
  }
  const fields = fieldsOf(query.error);
  return {
    inputs,
    update,
    applyPreset,
    steps: query.data ?? null,
    fields,
    keyProblem: null,
    error: query.error && Object.keys(fields).length === 0 ? query.error : null,
    computing: settled.id !== requestId || query.isFetching,
  };
}

/** Main's field issues, on the fields of the form. */
function fieldsOf(error: IpcError | null): BuildState['fields'] {
  const fields: BuildState['fields'] = {};
  for (const issue of error?.issues ?? []) {
    const f = fieldOf(issue.path);
    if (f === 'date') fields.date = 'date-invalid';
    else if (f === 'url') fields.url = 'url-invalid';
    else if (f === 'apiId') fields.apiId = 'api-id-chars';
  }
  return fields;
}
