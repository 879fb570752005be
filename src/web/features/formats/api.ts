import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFormat } from '../../../contract/formats';
import { api, errorStatus } from '../../lib/api';
import { formatKeys, refreshAfterChange } from '../../lib/query-keys';

const seg = encodeURIComponent;

export function useFormats() {
  return useQuery({ queryKey: formatKeys.list(), queryFn: () => api.get<TFormat[]>('/api/formats') });
}

/** One format by id; resolves to null when the server answers 404. */
export function useFormat(id: string | undefined) {
  return useQuery({
    queryKey: formatKeys.detail(id ?? ''),
    enabled: !!id,
    queryFn: async (): Promise<TFormat | null> => {
      try {
        return await api.get<TFormat>(`/api/formats/${seg(id ?? '')}`);
      } catch (error) {
        if (errorStatus(error) === 404) return null;
        throw error;
      }
    },
  });
}

export function useDeleteFormat() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/api/formats/${seg(id)}`),
    onSuccess: (_data, id) => {
      client.removeQueries({ queryKey: formatKeys.detail(id) });
      // Documents keep their own copy but show 'Unknown' as format name afterwards.
      return refreshAfterChange(client, 'both');
    },
  });
}

export function excelTemplateUrl(formatId: string): string {
  return `/api/formats/${seg(formatId)}/excel-template`;
}
