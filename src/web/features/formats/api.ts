import { useQuery } from '@tanstack/react-query';
import { apiRequest, errorStatus } from '../../lib/api';

/**
 * Local view types until the contract gains format/document schemas (later issue).
 * Only the fields the list screens read.
 */
export interface FormatSummary {
  id: string;
  name: string;
  description?: string | null;
  placeholders?: unknown[];
  createdAt?: string;
  updatedAt?: string;
}

export interface DocumentSummary {
  id: string;
  name: string;
  formatName?: string | null;
  status?: string | null;
  createdAt?: string;
}

function normalizeList<T>(body: unknown, key: string): T[] {
  if (Array.isArray(body)) return body as T[];
  if (body && typeof body === 'object') {
    const obj = body as Record<string, unknown>;
    const inner = obj[key] ?? obj['items'] ?? obj['data'];
    if (Array.isArray(inner)) return inner as T[];
  }
  return [];
}

/** GETs a list; a 404 (endpoint not there yet) reads as an empty list, 401 goes to the global handler. */
async function fetchList<T>(url: string, key: string): Promise<T[]> {
  try {
    const res = await apiRequest('GET', url);
    const text = await res.text();
    return normalizeList<T>(text ? JSON.parse(text) : [], key);
  } catch (error) {
    if (errorStatus(error) === 404) return [];
    throw error;
  }
}

export const FORMATS_KEY = ['/api/formats'] as const;
export const DOCUMENTS_KEY = ['/api/documents'] as const;

export function useFormats() {
  return useQuery({ queryKey: FORMATS_KEY, queryFn: () => fetchList<FormatSummary>('/api/formats', 'formats') });
}

export function useDocuments() {
  return useQuery({ queryKey: DOCUMENTS_KEY, queryFn: () => fetchList<DocumentSummary>('/api/documents', 'documents') });
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
