import { hashKey, MutationCache, QueryCache, QueryClient, type QueryKey } from '@tanstack/react-query';
import { isAccountKey } from './query-keys';
import { handleIfUnauthorized } from './unauthorized';
import { currentTeamId } from './workspace';

/**
 * A workspace's data is cached under its own entries: the same key in another workspace is another
 * entry, so a screen never shows one workspace's formats in another, even for a moment, and
 * switching back shows what was already loaded. Invalidation still matches by key, in every
 * workspace at once.
 */
export function workspaceQueryHash(queryKey: QueryKey): string {
  return hashKey(isAccountKey(queryKey) ? queryKey : [...queryKey, { workspace: currentTeamId() ?? 'personal' }]);
}

export const queryClient = new QueryClient({
  queryCache: new QueryCache({
    onError: (error, query) => {
      if (query.meta?.['skipUnauthorizedHandler']) return;
      handleIfUnauthorized(error);
    },
  }),
  mutationCache: new MutationCache({
    onError: (error, _vars, _ctx, mutation) => {
      if (mutation.meta?.['skipUnauthorizedHandler']) return;
      handleIfUnauthorized(error);
    },
  }),
  defaultOptions: {
    // Every query names its own function and key (lib/query-keys.ts); nothing is fetched implicitly.
    queries: {
      queryKeyHashFn: workspaceQueryHash,
      retry: false,
      refetchOnWindowFocus: false,
      refetchInterval: false,
      staleTime: Infinity,
    },
    mutations: {
      retry: false,
    },
  },
});
