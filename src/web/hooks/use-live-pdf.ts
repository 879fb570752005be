import { useEffect, useRef, useState } from 'react';
import { api, readApiError } from '../lib/api';
import { handleIfUnauthorized } from '../lib/unauthorized';

/** `pdf` and `url` (an object URL of it, to open in a tab) are the last PDF rendered, kept while the next renders. */
export type LivePdfState =
  | { status: 'idle' }
  | { status: 'rendering'; url: string | null; pdf: Blob | null }
  | { status: 'ready'; url: string; pdf: Blob; renderedAt: number }
  | { status: 'error'; url: string | null; pdf: Blob | null; message: string };

/** Long enough to let a word be typed in one render; short enough that the preview follows the typing. */
export const LIVE_PDF_DEBOUNCE_MS = 200;

/**
 * A PDF the server renders from `body` (a JSON text, so equal bodies compare equal), re-rendered
 * a moment after the body stops changing. Nothing renders while `enabled` is false (the pane is
 * off screen) or `body` is null (nothing to show). The last good PDF stays on screen while the
 * next renders, and after an error.
 */
export function useLivePdf(url: string, body: string | null, enabled: boolean, failure = 'The preview could not be rendered.'): LivePdfState {
  const [state, setState] = useState<LivePdfState>({ status: 'idle' });
  const objectUrl = useRef<string | null>(null);
  const lastPdf = useRef<Blob | null>(null);
  const seq = useRef(0);
  const lastRendered = useRef<string | null>(null);

  useEffect(() => {
    if (!enabled || body === null) return;
    const key = `${url}\n${body}`;
    if (lastRendered.current === key && objectUrl.current) return;
    const mine = ++seq.current;
    const timer = setTimeout(() => {
      setState({ status: 'rendering', url: objectUrl.current, pdf: lastPdf.current });
      api
        .blob('POST', url, JSON.parse(body) as unknown)
        .then((blob) => {
          if (mine !== seq.current) return;
          const pdf = new Blob([blob], { type: 'application/pdf' });
          const next = URL.createObjectURL(pdf);
          if (objectUrl.current) URL.revokeObjectURL(objectUrl.current);
          objectUrl.current = next;
          lastPdf.current = pdf;
          lastRendered.current = key;
          setState({ status: 'ready', url: next, pdf, renderedAt: Date.now() });
        })
        .catch((error: unknown) => {
          if (mine !== seq.current) return;
          if (handleIfUnauthorized(error)) return;
          setState({ status: 'error', url: objectUrl.current, pdf: lastPdf.current, message: readApiError(error, failure).message });
        });
    }, LIVE_PDF_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [url, body, enabled, failure]);

  useEffect(
    () => () => {
      if (objectUrl.current) URL.revokeObjectURL(objectUrl.current);
    },
    [],
  );

  if (body === null) return { status: 'idle' };
  return state;
}
