import { expect } from 'vitest';
import type { TestClient } from './test-app.ts';

/** A one-paragraph offer letter format and a document of it for Jane Doe, both made by `client`. */
export async function createOfferLetterDocument(client: TestClient): Promise<{ id: string; name: string }> {
  const format = await client.post('/api/formats', {
    name: 'Offer Letter',
    content: { elements: [{ id: 'p', type: 'paragraph', content: 'Dear {{client_name}}, welcome aboard.' }] },
    placeholders: [{ name: 'client_name', type: 'text', required: true }],
  });
  expect(format.statusCode, format.body).toBe(201);
  const document = await client.post('/api/documents', { formatId: (format.json() as { id: string }).id, data: { client_name: 'Jane Doe' } });
  expect(document.statusCode, document.body).toBe(201);
  return document.json() as { id: string; name: string };
}
