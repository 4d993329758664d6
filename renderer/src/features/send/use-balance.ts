// The chosen profile's balance. The last result stays on screen while a refresh runs, and a result
// that arrives after the profile changed is dropped.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { BalanceView } from '../../../../common/contract';
import { call, type IpcResult } from '../../app/api';

export interface BalanceState {
  checking: boolean;
  /** The last result for this profile; null before the first one. */
  result: IpcResult<BalanceView> | null;
}

export function useBalance(profileId: string | null, enabled: boolean): BalanceState & { refresh: () => void } {
  const [state, setState] = useState<BalanceState>({ checking: false, result: null });
  const current = useRef(profileId);

  const refresh = useCallback(() => {
    if (!profileId || !enabled) return;
    setState((s) => ({ ...s, checking: true }));
    void call((api) => api.balance.query({ profileId })).then((result) => {
      if (current.current === profileId) setState({ checking: false, result });
    });
  }, [profileId, enabled]);

  useEffect(() => {
    current.current = profileId;
    setState({ checking: false, result: null });
    refresh();
  }, [profileId, refresh]);

  return { ...state, refresh };
}
