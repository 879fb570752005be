import type { TImageFromUrlBody } from '../../../contract/format-content';
import type { TFormat, TFormatInput } from '../../../contract/formats';
import { useLivePdf, type LivePdfState } from '../../hooks/use-live-pdf';
import { api } from '../../lib/api';
import type { BuilderDoc } from './model';

export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
export const IMAGE_ACCEPT = 'image/png,image/jpeg,image/gif,image/webp';

export function toFormatInput(doc: BuilderDoc): TFormatInput {
  return {
    name: doc.name.trim(),
    description: doc.description.trim() || null,
    content: doc.content,
    placeholders: doc.placeholders,
  };
}

/** The first save creates the format (POST); later saves update it (PUT). */
export async function saveFormat(id: string | null, doc: BuilderDoc): Promise<TFormat> {
  const body = toFormatInput(doc);
  if (id) return api.put<TFormat>(`/api/formats/${encodeURIComponent(id)}`, body);
  return api.post<TFormat>('/api/formats', body);
}

/** POST /api/upload/image as multipart (field `image`); the stored image's address. */
export async function uploadImage(file: File): Promise<string> {
  const form = new FormData();
  form.append('image', file, file.name);
  return (await api.upload<{ url: string }>('/api/upload/image', form)).url;
}

/** Fetches an image by its address on the server and keeps it as an uploaded image; its /api/assets path. */
export async function imageFromUrl(url: string): Promise<string> {
  const body: TImageFromUrlBody = { url };
  return (await api.post<{ url: string }>('/api/assets/from-url', body)).url;
}

export type LivePreviewState = LivePdfState;

/** The real PDF of the unsaved builder state: POST /api/formats/preview (stores nothing), debounced. */
export function useLivePreview(doc: BuilderDoc, enabled: boolean): LivePreviewState {
  const body = doc.content.elements.length === 0 ? null : JSON.stringify({ ...toFormatInput(doc), name: doc.name.trim() || 'Untitled Format' });
  return useLivePdf('/api/formats/preview', body, enabled);
}
