// @vitest-environment happy-dom
import { waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { TDocument } from '../../../contract/documents';
import type { TShareLink } from '../../../contract/delivery';
import { api } from '../../lib/api';
import { formatWithDocument } from '../../test/fixtures';
import { findDialog, renderApp, screen, signUp, withServer } from '../../test/render-app';

const server = withServer();
let document: TDocument;

beforeEach(async () => {
  await signUp(server);
  ({ document } = await formatWithDocument());
});

/** Opens Share and emails from the document's row in Recent Documents. */
async function openShareDialog() {
  const view = renderApp('/documents');
  await view.user.click(await screen.findByRole('button', { name: `Share and emails of ${document.name}` }));
  const dialog = await findDialog('Share and emails');
  await within(dialog).findByText('No links yet.');
  return { ...view, dialog };
}

/** What someone without an account gets when they open the link. */
const openAsStranger = (url: string) => fetch(`/api/share/${new URL(url).pathname.split('/').pop()}`, { credentials: 'omit' });

describe('sharing a document by link', () => {
  it('makes a link for the chosen time, copies it, and the link opens the document without an account', async () => {
    const { user, dialog } = await openShareDialog();
    await user.selectOptions(within(dialog).getByLabelText('Open for'), '30 days');
    await user.click(within(dialog).getByRole('button', { name: 'Create and copy link' }));
    expect(await screen.findByText('Anyone with it can open this document until it expires.')).toBeTruthy();

    const [link] = await api.get<TShareLink[]>(`/api/documents/${document.id}/share-links`);
    expect(await navigator.clipboard.readText()).toBe(link!.url);
    expect(new Date(link!.expiresAt).getTime() - new Date(link!.createdAt).getTime()).toBe(30 * 86_400_000);

    const row = await within(dialog).findByTestId('share-link-row');
    expect(within(row).getByText(link!.url)).toBeTruthy();
    expect(within(row).getByText('Active')).toBeTruthy();
    expect((await openAsStranger(link!.url)).status).toBe(200);
  });

  it('turns a link off, after which it no longer opens the document', async () => {
    const { user, dialog } = await openShareDialog();
    await user.click(within(dialog).getByRole('button', { name: 'Create and copy link' }));
    const row = await within(dialog).findByTestId('share-link-row');
    const url = within(row).getByTitle(/\/s\//).textContent!;

    await user.click(within(row).getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByText('It no longer opens the document.')).toBeTruthy();
    await waitFor(() => expect(within(row).getByText('Turned off')).toBeTruthy());
    expect(within(row).queryByRole('button', { name: 'Turn off' })).toBeNull();
    expect((await openAsStranger(url)).status).toBe(404);
  });
});
