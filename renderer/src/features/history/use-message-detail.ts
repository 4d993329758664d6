// One message with its timeline and exchanges, loaded from main and loaded again (at most every
// 300 ms) while main pushes changes to it.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { MessageDetail } from '../../../../common/contract';
import { call, calloutApi, type IpcError } from '../../app/api';

export interface MessageDetailState {
  detail: MessageDetail | null;
  loading: boolean;
  error: IpcError | null;
  reload: () => void;
}

export function useMessageDetail(id: number | null): MessageDetailState {
  const [detail, setDetail] = useState<MessageDetail | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<IpcError | null>(null);
  const request = useRef(0);

  const load = useCallback((messageId: number, quiet: boolean) => {
    const n = ++request.current;
    if (!quiet) setLoading(true);
    void call((api) => api.messages.get({ id: messageId })).then((r) => {
      if (n !== request.current) return;
      setLoading(false);
      if (r.ok) {
        setDetail(r.value);
        setError(null);
      } else setError(r.error);
    });
  }, []);

  useEffect(() => {
    if (id === null) {
      request.current += 1;
      setDetail(null);
      setError(null);
      setLoading(false);
      return;
    }
    setDetail((d) => (d?.message.id === id ? d : null));
    load(id, false);
    const api = calloutApi();
    if (!api) return;
    let timer = 0;
    const unsubscribe = api.on.messageUpdated((m) => {
      if (m.id !== id || timer) return;
      timer = window.setTimeout(() => {
        timer = 0;
        load(id, true);
      }, 300);
    });
    return () => {
      unsubscribe();
      if (timer) window.clearTimeout(timer);
    };
  }, [id, load]);

  const reload = useCallback(() => {
    if (id !== null) load(id, true);
  }, [id, load]);

  return { detail, loading, error, reload };
}
