// The Build case: its inputs, and the steps main computes from them (signature.compute). The
// key never comes here: a profile's key is named by the profile's id and used in main; a typed
// key is passed through for this session's calls only.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ProfileView } from '../../../../common/contract';
import type { SignSteps, SignatureVariant } from '../../../../common/signature-types';
import { call, type IpcError } from '../../app/api';
import { keyFor, type KeyState } from './KeyBar';
import { httpDateNow, httpUrl, PRESETS, presetUrl, type PresetId } from './request-text';

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
}

export type FieldProblem = 'url-invalid' | 'api-id-required' | 'api-id-chars' | 'date-invalid' | 'date-required';
export type BuildField = 'url' | 'apiId' | 'date';

export interface BuildState {
  inputs: BuildInputs;
  update: (patch: Partial<BuildInputs>) => void;
  applyPreset: (id: PresetId) => void;
  steps: SignSteps | null;
  fields: Partial<Record<BuildField, FieldProblem>>;
  keyProblem: 'no-profile' | 'no-profile-key' | 'no-typed-key' | null;
  error: IpcError | null;
  computing: boolean;
}

const INITIAL: BuildInputs = { url: '', method: 'POST', dateMode: 'now', fixedDate: '', apiId: '', variant: 'spec', preset: null };

function fieldOf(path: string): BuildField | null {
  if (path === 'url') return 'url';
  if (path === 'apiId') return 'apiId';
  if (path === 'date') return 'date';
  return null;
}

/**
 * The Build case. `active`: the Build tab is shown (a live date is re-signed every second only
 * then, and only while the window is visible).
 */
export function useBuild(keyState: KeyState, profile: ProfileView | null, active: boolean): BuildState {
  const [inputs, setInputs] = useState<BuildInputs>(INITIAL);
  const [steps, setSteps] = useState<SignSteps | null>(null);
  const [fields, setFields] = useState<BuildState['fields']>({});
  const [keyProblem, setKeyProblem] = useState<BuildState['keyProblem']>(null);
  const [error, setError] = useState<IpcError | null>(null);
  const [computing, setComputing] = useState(false);
  const [tick, setTick] = useState(0);
  const generation = useRef(0);

  const update = useCallback((patch: Partial<BuildInputs>) => setInputs((i) => ({ ...i, ...patch })), []);

  const applyPreset = useCallback(
    (id: PresetId) => {
      const preset = PRESETS.find((p) => p.id === id);
      if (!preset) return;
      const url = presetUrl(preset, profile?.baseUrl ?? null);
      setInputs((i) => ({
        ...i,
        preset: id,
        method: preset.method,
        url: url ?? i.url,
        apiId: preset.group === 'voice' && profile ? profile.apiId : i.apiId,
      }));
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
        return { ...i, preset: 'voice-send', url: presetUrl(PRESETS[0]!, profile.baseUrl) ?? '', apiId: profile.apiId, variant };
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
  const keyId = key.ok ? ('profileId' in key.key ? `p:${key.key.profileId}` : `a:${key.key.adHoc}`) : `x:${key.reason}`;

  useEffect(() => {
    const mine = ++generation.current;
    const problems: BuildState['fields'] = {};
    if (!httpUrl(inputs.url)) problems.url = 'url-invalid';
    const apiId = inputs.apiId.trim();
    if (apiId === '') problems.apiId = 'api-id-required';
    else if (/["\r\n]/.test(apiId)) problems.apiId = 'api-id-chars';
    if (inputs.dateMode === 'fixed' && inputs.fixedDate.trim() === '') problems.date = 'date-required';
    setFields(problems);
    setKeyProblem(key.ok ? null : key.reason);
    if (Object.keys(problems).length > 0 || !key.ok) {
      setSteps(null);
      setError(null);
      setComputing(false);
      return;
    }
    const date = inputs.dateMode === 'fixed' ? inputs.fixedDate.trim() : httpDateNow();
    const input = { apiId, method: inputs.method, url: inputs.url.trim(), date, variant: inputs.variant, key: key.key };
    setComputing(true);
    const timer = window.setTimeout(() => {
      void call((api) => api.signature.compute(input)).then((r) => {
        if (mine !== generation.current) return;
        setComputing(false);
        if (r.ok) {
          setSteps(r.value);
          setError(null);
          return;
        }
        setSteps(null);
        const fieldProblems: BuildState['fields'] = {};
        for (const issue of r.error.issues ?? []) {
          const f = fieldOf(issue.path);
          if (f === 'date') fieldProblems.date = 'date-invalid';
          else if (f === 'url') fieldProblems.url = 'url-invalid';
          else if (f === 'apiId') fieldProblems.apiId = 'api-id-chars';
        }
        if (Object.keys(fieldProblems).length > 0) {
          setFields(fieldProblems);
          setError(null);
        } else setError(r.error);
      });
    }, 150);
    return () => window.clearTimeout(timer);
  }, [inputs.url, inputs.method, inputs.dateMode, inputs.fixedDate, inputs.apiId, inputs.variant, keyId, tick]);

  return { inputs, update, applyPreset, steps, fields, keyProblem, error, computing };
}
