// @vitest-environment happy-dom
import { waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { TDocument } from '../../../contract/documents';
import type { TFormat } from '../../../contract/formats';
import { api } from '../../lib/api';
import { createFormat } from '../../test/fixtures';
import { findDialog, renderApp, screen, signUp, withServer } from '../../test/render-app';

const server = withServer();
let format: TFormat;

beforeEach(async () => {
  await signUp(server);
  format = await createFormat('Offer letter', [
    { name: 'client_name', label: 'Client name', type: 'text', required: true },
    { name: 'start_date', label: 'Start date', type: 'date', required: true },
    { name: 'email', label: 'Contact email', type: 'email' },
    { name: 'notes', label: 'Notes', type: 'textarea' },
  ]);
});

describe('the data-entry form', () => {
  it('shows the fields the format asks for, with the required ones marked', async () => {
    renderApp(`/data-entry/${format.id}`);
    const form = await screen.findByRole('form', { name: 'Generate document' });
    expect(within(form).getByText('4 fields, 2 required (marked *). Filling many at once? Use a spreadsheet.')).toBeTruthy();
    expect(
      within(form)
        .getByLabelText(/^Client name/)
        .getAttribute('aria-required'),
    ).toBe('true');
    expect(within(form).getByLabelText('Notes').getAttribute('aria-required')).toBeNull();
  });

  it('refuses to generate with required fields empty, names them, and clears the message once they are filled', async () => {
    const { user } = renderApp(`/data-entry/${format.id}`);
    const form = await screen.findByRole('form', { name: 'Generate document' });
    await user.click(within(form).getByRole('button', { name: 'Generate Document' }));

    const alert = await within(form).findByTestId('form-error');
    expect(alert.textContent).toBe('Please fill in all required fields: Client name, Start date');
    const client = within(form).getByLabelText(/^Client name/);
    expect(client.getAttribute('aria-invalid')).toBe('true');
    expect(within(form).getByLabelText('Notes').getAttribute('aria-invalid')).toBeNull();

    await user.type(client, 'Ada Lovelace');
    expect(within(form).getByTestId('form-error').textContent).toBe('Please fill in all required fields: Start date');
    await user.type(within(form).getByLabelText(/^Start date/), '2026-12-01');
    expect(within(form).queryByTestId('form-error')).toBeNull();
    expect(await api.get<TDocument[]>('/api/documents')).toEqual([]);
  });

  it('points at a badly written email address before sending anything', async () => {
    const { user } = renderApp(`/data-entry/${format.id}`);
    const form = await screen.findByRole('form', { name: 'Generate document' });
    await user.type(within(form).getByLabelText(/^Client name/), 'Ada');
    await user.type(within(form).getByLabelText(/^Start date/), '2026-12-01');
    await user.type(within(form).getByLabelText('Contact email'), 'not-an-address');
    await user.click(within(form).getByRole('button', { name: 'Generate Document' }));
    expect((await within(form).findByTestId('form-error')).textContent).toBe('Please correct the highlighted fields.');
    expect(within(form).getByLabelText('Contact email').getAttribute('aria-invalid')).toBe('true');
    expect(await api.get<TDocument[]>('/api/documents')).toEqual([]);
  });

  it('generates the document, shows the success dialog, and starts over on Generate another', async () => {
    const { user } = renderApp(`/data-entry/${format.id}`);
    const form = await screen.findByRole('form', { name: 'Generate document' });
    await user.type(within(form).getByLabelText(/^Client name/), 'Ada Lovelace');
    await user.type(within(form).getByLabelText(/^Start date/), '2026-12-01');
    await user.type(within(form).getByLabelText('Notes'), 'Starts in the London office.');
    await user.click(within(form).getByRole('button', { name: 'Generate Document' }));

    const dialog = await findDialog('Document generated');
    const [made, ...others] = await api.get<TDocument[]>('/api/documents');
    expect(others).toEqual([]);
    expect(made).toMatchObject({ formatId: format.id, clientName: 'Ada Lovelace' });
    expect(made!.data).toMatchObject({ client_name: 'Ada Lovelace', start_date: '2026-12-01', notes: 'Starts in the London office.' });
    expect(made!.data['email'] ?? '').toBe('');
    expect(within(dialog).getByText(made!.name)).toBeTruthy();
    expect(
      within(dialog)
        .getByRole('link', { name: /Download/ })
        .getAttribute('href'),
    ).toContain(made!.id);

    await user.click(within(dialog).getByRole('button', { name: 'Generate another' }));
    expect(screen.queryByRole('dialog', { name: 'Document generated' })).toBeNull();
    expect(within(form).getByLabelText(/^Client name/)).toHaveProperty('value', '');
  });

  it('shows the name the server will give the document as the person types, and the document gets that name', async () => {
    // The server dates a name in UTC as YYYY-MM-DD, whatever the browser's locale.
    const today = () => new Date().toISOString().slice(0, 10);
    const { user } = renderApp(`/data-entry/${format.id}`);
    const form = await screen.findByRole('form', { name: 'Generate document' });
    const saved = within(form).getByTestId('document-name');
    expect(saved.textContent).toBe(`Saved as “Offer letter - ${today()}”`);

    await user.type(within(form).getByLabelText(/^Client name/), 'Ada Lovelace');
    await waitFor(() => expect(saved.textContent).toBe(`Saved as “Offer letter - Ada Lovelace - ${today()}”`));
    await user.type(within(form).getByLabelText(/^Start date/), '2026-12-01');
    await user.click(within(form).getByRole('button', { name: 'Generate Document' }));

    await findDialog('Document generated');
    const [made] = await api.get<TDocument[]>('/api/documents');
    expect(saved.textContent).toBe(`Saved as “${made!.name}”`);
  });
});
