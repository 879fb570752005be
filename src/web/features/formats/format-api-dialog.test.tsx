// @vitest-environment happy-dom
import { within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { STARTER_FORMATS } from '../../../contract/starter-formats';
import { api } from '../../lib/api';
import { findDialog, renderApp, screen, setPlan, signUp, withServer } from '../../test/render-app';

const server = withServer();
const invoice = STARTER_FORMATS.find((s) => s.id === 'invoice')!;

/** A signed-in Enterprise user with the invoice starter saved as a format. */
async function withInvoice(): Promise<string> {
  const { user } = await signUp(server);
  await setPlan(server, user.id, 'enterprise');
  const format = await api.post<{ id: string }>('/api/formats', { name: 'Invoice', content: invoice.content, placeholders: invoice.placeholders });
  return format.id;
}

/** The `-d '…'` body of a curl sample, as a shell would pass it. */
const curlBody = (sample: string) => JSON.parse(/-d '([\s\S]*)'$/.exec(sample)![1]!.replaceAll(`'\\''`, "'")) as { formatId: string; data: unknown };

describe('a format’s API details', () => {
  it('on My Formats: shows the id and the example data, each with Copy', async () => {
    const formatId = await withInvoice();
    const view = renderApp('/formats');
    await view.user.click(await screen.findByRole('button', { name: 'API details for Invoice' }));
    const dialog = await findDialog('API details: Invoice');
    expect((within(dialog).getByLabelText('Format id') as HTMLInputElement).value).toBe(formatId);

    await view.user.click(within(dialog).getByRole('button', { name: 'Copy format id' }));
    expect(await screen.findByText('Format id copied')).toBeTruthy();
    expect(await navigator.clipboard.readText()).toBe(formatId);

    await view.user.click(within(dialog).getByRole('button', { name: 'Copy example data' }));
    const example = JSON.parse(await navigator.clipboard.readText()) as Record<string, unknown>;
    expect(example).toMatchObject({ client_name: 'Jane Doe', tax_rate: 10, reverse_charge: false, payment_terms: '7 days' });
    expect(example['items']).toEqual([{ description: 'Description', qty: 2, unit_price: 1200 }]);
    // Computed fields are the document's to work out.
    expect(example).not.toHaveProperty('total');
  });

  it('in the builder’s API menu: copies the id, and opens the same details', async () => {
    const formatId = await withInvoice();
    const view = renderApp(`/builder/${formatId}`);
    await view.user.click(await screen.findByRole('button', { name: 'API' }));
    await view.user.click(await screen.findByRole('menuitem', { name: 'Copy format id' }));
    expect(await navigator.clipboard.readText()).toBe(formatId);
    await view.user.click(screen.getByRole('button', { name: 'API' }));
    await view.user.click(await screen.findByRole('menuitem', { name: 'API details…' }));
    const dialog = await findDialog('API details: Invoice');
    expect(within(dialog).getByRole('region', { name: 'Sample call' }).textContent).toContain(formatId);
  });

  it('in the API tab: the sample call names the chosen format and makes a document as it is', async () => {
    const formatId = await withInvoice();
    const created = await api.post<{ key: string }>('/api/user/api-keys', { name: 'Server', mode: 'test' });
    renderApp('/settings?tab=api');
    const select = (await screen.findByLabelText('Format')) as HTMLSelectElement;
    expect(select.value).toBe(formatId);
    const sample = (await screen.findByRole('region', { name: 'Sample call' })).textContent ?? '';
    expect(sample).toContain(`"formatId": "${formatId}"`);

    const made = await fetch('/api/v1/documents', {
      method: 'POST',
      headers: { Authorization: `Bearer ${created.key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(curlBody(sample)),
      credentials: 'omit',
    });
    expect(made.status).toBe(201);
  });
});
