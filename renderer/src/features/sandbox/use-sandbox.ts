// What the Sandbox screen reads from main (the sandbox behind the built-in profile, through the
// sandbox.* operations) and how a change puts main's new view in the cache at once.
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { SandboxView } from '../../../../common/contract';
import type { CalloutApi, IpcResult } from '../../app/api';
import { ask } from '../../app/query';
import { templatesChanged } from '../templates/templates-changed';

/** While the screen is open, the sandbox is read again this often (calls ring and end, balances change). */
export const SANDBOX_POLL_MS = 2_000;

/** The keys of what the Sandbox screen reads. */
export const sandboxKeys = {
  all: ['sandbox'] as const,
  state: () => [...sandboxKeys.all, 'state'] as const,
  requests: () => [...sandboxKeys.all, 'requests'] as const,
  requestsUpTo: (limit: number) => [...sandboxKeys.requests(), limit] as const,
};

export const sandboxQuery = queryOptions({ queryKey: sandboxKeys.state(), queryFn: () => ask((api) => api.sandbox.state()) });

export const sandboxRequestsQuery = (limit: number) =>
  queryOptions({ queryKey: sandboxKeys.requestsUpTo(limit), queryFn: () => ask((api) => api.sandbox.requests({ limit })) });

/** A change to the sandbox: main answers with the sandbox's new state, which replaces the cached one. */
export function useSandboxChange<I>(run: (api: CalloutApi, input: I) => Promise<IpcResult<SandboxView>>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: I) => ask((api) => run(api, input)),
    onSuccess: (view) => {
      client.setQueryData(sandboxQuery.queryKey, view);
      void client.invalidateQueries({ queryKey: sandboxKeys.requests() });
      // A template the Sandbox approved is approved in the library too (main marks it): every list of templates loads again.
      templatesChanged();
    },
  });
}
