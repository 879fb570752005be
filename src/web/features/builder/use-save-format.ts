import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TFormat } from '../../../contract/formats';
import { formatKeys, refreshAfterChange } from '../../lib/query-keys';
import { saveFormat } from './api';
import type { BuilderDoc } from './model';

export interface SaveFormatVariables {
  /** The saved format's id, or null for the first save. */
  id: string | null;
  doc: BuilderDoc;
}

/**
 * Saving a format: the first save creates it (POST), later saves update it (PUT). On success the
 * format's own query holds the answer, so opening it elsewhere needs no request, and the lists,
 * stats and documents refresh. Failures reach the caller (and a 401 the one global handler).
 */
export function useSaveFormat() {
  const client = useQueryClient();
  return useMutation<TFormat, unknown, SaveFormatVariables>({
    mutationFn: ({ id, doc }) => saveFormat(id, doc),
    onSuccess: (saved) => {
      client.setQueryData(formatKeys.detail(saved.id), saved);
      void refreshAfterChange(client, 'both');
    },
  });
}
