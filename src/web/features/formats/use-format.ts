import { useQuery } from '@tanstack/react-query';
import { apiRequest, errorStatus } from '../../lib/api';
import type { FormatSummary } from './api';

/** One format by id; resolves to null when the server answers 404. */
export function useFormat(id: string | undefined) {
  return useQuery({
    queryKey: ['/api/formats', id ?? ''],
    enabled: !!id,
    queryFn: async (): Promise<FormatSummary | null> => {
      try {
        const res = await apiRequest('GET', `/api/formats/${encodeURIComponent(id ?? '')}`);
        return (await res.json()) as FormatSummary;
      } catch (error) {
        if (errorStatus(error) === 404) return null;
        throw error;
      }
    },
  });
}
