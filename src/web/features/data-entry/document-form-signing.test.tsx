// @vitest-environment happy-dom
import { within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { TDocument } from '../../../contract/documents';
import { api } from '../../lib/api';
import { createFormat } from '../../test/fixtures';
import { findDialog, renderApp, screen, signUp, withServer } from '../../test/render-app';

const server = withServer();

beforeEach(async () => {
  await signUp(server);
});

describe('a format with signing fields', () => {
  it('asks for no signing field, says who signs, and generates without them', async () => {
    const signed = await createFormat('Lease', [
      { name: 'tenant', label: 'Tenant', type: 'text', required: true },
      { name: 'tenant_signature', type: 'signature', signer: 1 },
      { name: 'landlord_signature', type: 'signature', signer: 2 },
      { name: 'landlord_signed_on', type: 'signed_date', signer: 2 },
    ]);
    const { user } = renderApp(`/data-entry/${signed.id}`);
    const form = await screen.findByRole('form', { name: 'Generate document' });
    expect(within(form).getByText('1 field, 1 required (marked *). Filling many at once? Use a spreadsheet.')).toBeTruthy();
    expect(within(form).queryByLabelText(/signature/i)).toBeNull();
    expect(within(form).queryByLabelText(/signed on/i)).toBeNull();
    expect(within(form).getByTestId('signing-note').textContent).toBe(
      'This format has signing fields for Signer 1 and Signer 2. They are filled in when the document is signed.',
    );

    await user.type(within(form).getByLabelText(/^Tenant/), 'Ada Lovelace');
    await user.click(within(form).getByRole('button', { name: 'Generate Document' }));
    await findDialog('Document generated');
    const [made] = await api.get<TDocument[]>('/api/documents');
    expect(Object.keys(made!.data)).toEqual(['tenant']);
  });
});
