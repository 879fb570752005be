import { MutationCache, QueryCache, QueryClient, type QueryFunction } from '@tanstack/react-query';
import { apiRequest } from './api';
import { handleIfUnauthorized } from './unauthorized';

type UnauthorizedBehavior = 'returnNull' | 'throw';

/** GETs `queryKey.join('/')` and parses the JSON; on 401 either throws or resolves to null. */
export function getQueryFn<T>(options: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey }) => {
    const url = queryKey.join('/');
    const res = await fetch(url, { credentials: 'include' });
    if (options.on401 === 'returnNull' && res.status === 401) return null;
    if (!res.ok) {
      const text = (await res.text()) || res.statusText;
      throw new Error(`${res.status}: ${text}`);
    }
    return (await res.json()) as T;
  };
}

/** A GET through apiRequest, for queries that need a custom function. */
export async function getJson<T>(url: string): Promise<T> {
  const res = await apiRequest('GET', url);
  return (await res.json()) as T;
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
    queries: {
      queryFn: getQueryFn({ on401: 'throw' }),
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
