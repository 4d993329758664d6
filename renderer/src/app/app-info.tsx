// AppInfo (version, where keys are stored…) loaded once and shared with every screen.
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import type { AppInfo } from '../../../common/contract';
import { call, type IpcError } from './api';

export interface AppInfoState {
  info: AppInfo | null;
  error: IpcError | null;
  reload: () => void;
}

const AppInfoContext = createContext<AppInfoState>({ info: null, error: null, reload: () => undefined });

export function AppInfoProvider({ children }: { children: ReactNode }) {
  const [info, setInfo] = useState<AppInfo | null>(null);
  const [error, setError] = useState<IpcError | null>(null);
  const [generation, setGeneration] = useState(0);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);

  useEffect(() => {
    let live = true;
    void call((api) => api.app.info()).then((r) => {
      if (!live) return;
      if (r.ok) {
        setInfo(r.value);
        setError(null);
      } else setError(r.error);
    });
    return () => {
      live = false;
    };
  }, [generation]);

  return <AppInfoContext.Provider value={{ info, error, reload }}>{children}</AppInfoContext.Provider>;
}

export function useAppInfo(): AppInfoState {
  return useContext(AppInfoContext);
}
