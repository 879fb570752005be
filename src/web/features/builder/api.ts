import { useEffect, useRef, useState } from 'react';
import type { TImageFromUrlBody } from '../../../contract/format-content';
import type { TFormat, TFormatInput } from '../../../contract/formats';
import { api, readApiError } from '../../lib/api';
import { handleIfUnauthorized } from '../../lib/unauthorized';
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

export type LivePreviewState =
  | { status: 'idle' }
  | { status: 'rendering'; url: string | null }
  | { status: 'ready'; url: string; renderedAt: number }
  | { status: 'error'; url: string | null; message: string };

export const LIVE_PREVIEW_DEBOUNCE_MS = 800;

/**
 * The real PDF of the unsaved builder state: POST /api/formats/preview (stores nothing), debounced.
 * Only renders while `enabled` (the pane is on screen) and there is something to render.
 */
export function useLivePreview(doc: BuilderDoc, enabled: boolean): LivePreviewState {
  const [state, setState] = useState<LivePreviewState>({ status: 'idle' });
  const urlRef = useRef<string | null>(null);
  const seq = useRef(0);
  const body = JSON.stringify({ ...toFormatInput(doc), name: doc.name.trim() || 'Untitled Format' });
  const empty = doc.content.elements.length === 0;
  const lastRendered = useRef<string | null>(null);

  useEffect(() => {
    if (!enabled || empty) return;
    if (lastRendered.current === body && urlRef.current) return;
    const mine = ++seq.current;
    const timer = setTimeout(() => {
      setState({ status: 'rendering', url: urlRef.current });
      api
        .blob('POST', '/api/formats/preview', JSON.parse(body) as unknown)
        .then((blob) => {
          if (mine !== seq.current) return;
          const url = URL.createObjectURL(new Blob([blob], { type: 'application/pdf' }));
          if (urlRef.current) URL.revokeObjectURL(urlRef.current);
          urlRef.current = url;
          lastRendered.current = body;
          setState({ status: 'ready', url, renderedAt: Date.now() });
        })
        .catch((error: unknown) => {
          if (mine !== seq.current) return;
          if (handleIfUnauthorized(error)) return;
          setState({
            status: 'error',
            url: urlRef.current,
            message: readApiError(error, 'The preview could not be rendered.').message,
          });
        });
    }, LIVE_PREVIEW_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [body, enabled, empty]);

  useEffect(
    () => () => {
      if (urlRef.current) URL.revokeObjectURL(urlRef.current);
    },
    [],
  );

  if (empty) return { status: 'idle' };
  return state;
}
