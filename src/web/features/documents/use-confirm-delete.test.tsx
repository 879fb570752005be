// @vitest-environment happy-dom
import { waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TDocument } from '../../../contract/documents';
import type { TFormat } from '../../../contract/formats';
import { api } from '../../lib/api';
import { formatWithDocument } from '../../test/fixtures';
import { findDialog, renderApp, screen, signUp, withServer } from '../../test/render-app';

const server = withServer();

describe('deleting, after asking first', () => {
  it('keeps a document when the question is cancelled', async () => {
    await signUp(server);
    const { document } = await formatWithDocument();
    const { user } = renderApp('/documents');
    await user.click(await screen.findByRole('button', { name: `Delete ${document.name}` }));
    const ask = await findDialog('Delete document?', 'alertdialog');
    expect(within(ask).getByText(`Are you sure you want to delete "${document.name}"? This action cannot be undone.`)).toBeTruthy();
    await user.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(await api.get<TDocument[]>('/api/documents')).toHaveLength(1);
    expect(screen.getByTitle(document.name)).toBeTruthy();
  });

  it('deletes a document from Recent Documents once confirmed', async () => {
    await signUp(server);
    const { document } = await formatWithDocument();
    const { user } = renderApp('/documents');
    await user.click(await screen.findByRole('button', { name: `Delete ${document.name}` }));
    const ask = await findDialog('Delete document?', 'alertdialog');
    await user.click(within(ask).getByRole('button', { name: 'Delete document' }));

    expect(await screen.findByText('Document has been removed from your account.')).toBeTruthy();
    expect(await screen.findByText('No documents yet')).toBeTruthy();
    expect(await api.get<TDocument[]>('/api/documents')).toEqual([]);
  });

  it('deletes a format from My Formats once confirmed, keeping its documents', async () => {
    await signUp(server);
    const { format } = await formatWithDocument();
    const { user } = renderApp('/formats');
    await user.click(await screen.findByRole('button', { name: `Delete ${format.name}` }));
    const ask = await findDialog(`Delete "${format.name}"?`, 'alertdialog');
    await user.click(within(ask).getByRole('button', { name: 'Delete format' }));

    expect(await screen.findByText('Format deleted successfully!')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('button', { name: `Delete ${format.name}` })).toBeNull());
    expect(await api.get<TFormat[]>('/api/formats')).toEqual([]);
    expect(await api.get<TDocument[]>('/api/documents')).toHaveLength(1);
  });
});
