import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { handleIfUnauthorized } from './unauthorized';

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
