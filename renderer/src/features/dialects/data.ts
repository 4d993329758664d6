// What the dialect drawers ask main: the built-in dialects, a reply's tree and a mapping's preview
// (the Teach drawer), and what changes a profile's reading (its dialect, an imported one, how its
// calls are followed). A failure is the query's or mutation's error (main's, or `internal`).
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Dialect } from '../../../../common/dialects';
import type { FollowMode } from '../../../../common/contract';
import { ask, messageKeys, profileKeys } from '../../app/query';

/** The keys of what the dialect drawers read. */
export const dialectKeys = {
  all: ['dialects'] as const,
  builtins: () => [...dialectKeys.all, 'builtins'] as const,
  reply: (exchangeId: number | null) => [...dialectKeys.all, 'reply', exchangeId] as const,
  preview: (profileId: string | undefined, dialect: Dialect | null) => [...dialectKeys.all, 'preview', profileId, dialect] as const,
};

export const dialectsQuery = { queryKey: dialectKeys.builtins(), queryFn: () => ask((api) => api.dialects.list()), staleTime: Infinity } as const;

export function useBuiltinDialects() {
  return useQuery(dialectsQuery);
}

/** Gives a profile a built-in dialect or one of its own. */
export function useSetDialect(profileId: string | undefined) {
  return useMutation({
    mutationFn: (dialect: { builtin: string } | { custom: Dialect }) => ask((api) => api.profiles.setDialect({ id: profileId!, dialect })),
  });
}

/** Reads a dialect file (dialects.check), then gives it to the profile. */
export function useImportDialect(profileId: string | undefined) {
  return useMutation({
    mutationFn: async (text: string) => {
      const checked = await ask((api) => api.dialects.check({ text }));
      return ask((api) => api.profiles.setDialect({ id: profileId!, dialect: { custom: checked } }));
    },
  });
}

/** How a profile's calls are followed (polling or receipts, where receipts arrive; a new secret). */
export function useSetFollow(profileId: string | undefined) {
  return useMutation({
    mutationFn: (input: { follow: FollowMode; host: string; port: number; newSecret?: boolean }) =>
      ask((api) => api.profiles.setFollow({ id: profileId!, ...input })),
  });
}

/** A reply's tree, to teach a dialect from it (read while the drawer is open, not kept after). */
export function useDialectReply(exchangeId: number | null) {
  return useQuery({
    queryKey: dialectKeys.reply(exchangeId),
    queryFn: () => ask((api) => api.dialects.reply({ exchangeId: exchangeId! })),
    enabled: exchangeId !== null,
    gcTime: 0,
  });
}

/** What a profile's messages would read as with a mapping (the previous answer stays meanwhile). */
export function useDialectPreview(open: boolean, profileId: string | undefined, candidate: Dialect | null) {
  return useQuery({
    queryKey: dialectKeys.preview(profileId, candidate),
    queryFn: () => ask((api) => api.dialects.preview({ profileId: profileId!, dialect: candidate! })),
    enabled: open && candidate !== null,
    placeholderData: keepPreviousData,
    gcTime: 0,
  });
}

/** Saves a taught dialect as the profile's own: the profiles and the messages' readings are loaded again. */
export function useSaveTaughtDialect(profileId: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (d: Dialect) => ask((api) => api.profiles.setDialect({ id: profileId!, dialect: { custom: d } })),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: profileKeys.all });
      void client.invalidateQueries({ queryKey: messageKeys.details() });
    },
  });
}
