import { useQuery } from '@tanstack/react-query';
import type { TDocument } from '../../../contract/documents';
import type { TFormat } from '../../../contract/formats';

export type FormatSummary = TFormat;
export type DocumentSummary = TDocument;

export const FORMATS_KEY = ['/api/formats'] as const;
export const DOCUMENTS_KEY = ['/api/documents'] as const;

/** GET /api/formats through the default query function (401 goes to the one global handler). */
export function useFormats() {
  return useQuery<TFormat[]>({ queryKey: FORMATS_KEY });
}

export function useDocuments() {
  return useQuery<TDocument[]>({ queryKey: DOCUMENTS_KEY });
}

export function formatDate(iso: string | undefined, withTime = false): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return d.toLocaleString('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    ...(withTime ? { hour: 'numeric', minute: '2-digit' } : {}),
  });
}

/** 'generated' -> 'Generated'; an empty status reads as the default 'Generated'. */
export function statusLabel(status: string | null | undefined): string {
  const s = (status ?? '').trim();
  if (!s) return 'Generated';
  return s.charAt(0).toUpperCase() + s.slice(1).replace(/_/g, ' ');
}
