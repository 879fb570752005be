/** Formats the web tests start from, made through the app's own API client as the signed-in user. */
import type { TBulkJob } from '../../contract/bulk';
import type { TFormatContent } from '../../contract/format-content';
import type { TDocument } from '../../contract/documents';
import type { TFormat } from '../../contract/formats';
import type { TPlaceholderInput } from '../../contract/placeholders';
import { eq } from 'drizzle-orm';
import { apiKeys } from '../../server/db/schema';
import { api } from '../lib/api';
import type { TWebServer } from './render-app';

/** A paragraph that prints every named placeholder, so each one is used by the format. */
export function paragraphUsing(names: readonly string[]): TFormatContent['elements'][number] {
  return {
    id: 'p1',
    type: 'paragraph',
    content: names.map((n) => `{{${n}}}`).join(' '),
    align: 'left',
    bold: false,
    italic: false,
    underline: false,
  };
}

export async function createFormat(name: string, placeholders: TPlaceholderInput[], elements?: TFormatContent['elements']): Promise<TFormat> {
  return api.post<TFormat>('/api/formats', {
    name,
    description: null,
    content: { elements: elements ?? [paragraphUsing(placeholders.map((p) => p.name))] },
    placeholders,
  });
}

/** A format with one required field and one document made from it, as the signed-in user. */
export async function formatWithDocument(clientName = 'Jane Doe'): Promise<{ format: TFormat; document: TDocument }> {
  const format = await createFormat('Offer Letter', [{ name: 'client_name', label: 'Client name', type: 'text', required: true }]);
  const document = await api.post<TDocument>('/api/documents', { formatId: format.id, data: { client_name: clientName } });
  return { format, document };
}

/** A batch of `format` from a CSV, started and waited for until it has finished. */
export async function finishedBatch(format: TFormat, fileName: string, csv: string): Promise<TBulkJob> {
  const form = new FormData();
  form.append('file', new File([csv], fileName, { type: 'text/csv' }));
  const draft = await api.upload<{ id: string }>(`/api/formats/${format.id}/bulk`, form);
  await api.post(`/api/bulk-jobs/${draft.id}/start`, { skipInvalid: false });
  for (;;) {
    const job = await api.get<TBulkJob>(`/api/bulk-jobs/${draft.id}`);
    if (job.status === 'completed') return job;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A 40x24 PNG. */
const SMALL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAACgAAAAYCAIAAAAH5iiXAAAAKElEQVR4nGPwd3s6IIhh1OJRi0ctHrV41OJRi0ctHrV41OJRi4ePxQCR4YnMcvRTDgAAAABJRU5ErkJggg==';

/** An image uploaded as the signed-in user, as the builder's Upload does it; its address for an image's `src`. */
export async function uploadedImage(): Promise<string> {
  const form = new FormData();
  form.append('image', new File([Buffer.from(SMALL_PNG, 'base64')], 'logo.png', { type: 'image/png' }), 'logo.png');
  return (await api.upload<{ url: string }>('/api/upload/image', form)).url;
}

/** Deletes the API key named `name` behind the app's back, as another tab or session would. */
export async function deleteApiKey(server: TWebServer, name: string): Promise<void> {
  await server.t.database.db.delete(apiKeys).where(eq(apiKeys.name, name));
}
