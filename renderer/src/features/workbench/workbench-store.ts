// The request open in the raw client: it outlives the screen (a replay from History, a request
// picked from a collection, a paste), so it lives in a store, not in the screen's state.
import type { Assertion, Capture, RawRequest } from '../../../../common/contract';
import { navigate } from '../../app/navigation';
import { createStore, useStore } from '../../app/store';
import { NEW_REQUEST } from './new-request';

export interface Draft {
  profileId: string | null;
  environmentId: number | null;
  request: RawRequest;
  assertions: Assertion[];
  captures: Capture[];
  /** The saved request it was opened from (saving updates it), and its collection. */
  savedId: number | null;
  collectionId: number | null;
  name: string;
  /** Changed since it was opened or saved. */
  dirty: boolean;
}

export { NEW_REQUEST } from './new-request';

const initial: Draft = {
  profileId: null,
  environmentId: null,
  request: NEW_REQUEST,
  assertions: [],
  captures: [],
  savedId: null,
  collectionId: null,
  name: '',
  dirty: false,
};

export const draftStore = createStore<Draft>(initial);

export function useDraft(): Draft {
  return useStore(draftStore);
}

/** Changes the open request (marks it changed). */
export function editRequest(patch: Partial<RawRequest>): void {
  draftStore.set((d) => ({ ...d, request: { ...d.request, ...patch }, dirty: true }));
}

export function editDraft(patch: Partial<Draft>): void {
  draftStore.set((d) => ({ ...d, ...patch, dirty: patch.dirty ?? true }));
}

/** Opens a request in the raw client (a replay, an import) and goes there. */
export function openInWorkbench(patch: Partial<Draft>): void {
  draftStore.set((d) => ({ ...initial, profileId: d.profileId, environmentId: d.environmentId, ...patch, dirty: false }));
  navigate('requests');
}

export function newDraft(request: RawRequest = NEW_REQUEST): void {
  draftStore.set((d) => ({ ...initial, profileId: d.profileId, environmentId: d.environmentId, request }));
}
