// @vitest-environment happy-dom
import { within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { TDocument } from '../../../contract/documents';
import type { TShareLink } from '../../../contract/delivery';
import { api } from '../../lib/api';
import { createFormat } from '../../test/fixtures';
import { findDialog, renderApp, returnToApp, screen, signUp, withServer } from '../../test/render-app';

// No mail server on this installation.
const server = withServer();

beforeEach(async () => {
  await signUp(server);
});

/** Fills the one field and generates; returns the success dialog and the document the server made. */
async function generate() {
  const format = await createFormat('Certificate', [{ name: 'client_name', label: 'Client name', type: 'text', required: true }]);
  const view = renderApp(`/data-entry/${format.id}`);
  await view.user.type(await screen.findByLabelText(/^Client name/), 'Ada Lovelace');
  await view.user.click(screen.getByRole('button', { name: 'Generate Document' }));
  const dialog = await findDialog('Document generated');
  const [document] = await api.get<TDocument[]>('/api/documents');
  return { ...view, dialog, document: document! };
}

describe('the success dialog after generating', () => {
  it('offers the PDF to download and to preview, by the document’s own addresses', async () => {
    const { dialog, document } = await generate();
    expect(within(dialog).getByText(`${document.name}`)).toBeTruthy();
    expect(within(dialog).getByText(/is ready\. It is saved in Recent Documents\./)).toBeTruthy();
    const download = within(dialog).getByRole('link', { name: /^Download/ });
    expect(download.hasAttribute('download')).toBe(true);
    const downloaded = await fetch(download.getAttribute('href')!, { credentials: 'include' });
    expect(downloaded.headers.get('content-type')).toContain('application/pdf');
    expect(within(dialog).getByRole('link', { name: 'Preview' }).getAttribute('href')).toContain(document.id);
  });

  it('with no mail server, emails by a draft in the user’s own mail app carrying a link that needs no account', async () => {
    const { user, dialog, document } = await generate();
    await user.click(within(dialog).getByRole('button', { name: /^Email/ }));
    const email = await findDialog('Email the document');
    expect(await within(email).findByText('No mail server is set up yet')).toBeTruthy();
    expect(within(email).queryByRole('button', { name: 'Send email' })).toBeNull();

    await user.click(within(email).getByRole('button', { name: 'Open a draft with a link' }));
    const link = (await within(email).findByLabelText('Link to the document')) as HTMLInputElement;
    // The browser went to the draft: addressed to no one yet, the document's name as its subject.
    const draft = new URL(window.location.href);
    returnToApp(server);
    expect(draft.protocol).toBe('mailto:');
    expect(draft.searchParams.get('subject')).toBe(document.name);
    expect(draft.searchParams.get('body')).toContain(link.value);
    const [made] = await api.get<TShareLink[]>(`/api/documents/${document.id}/share-links`);
    expect(link.value).toBe(made!.url);
    expect(within(email).getByRole('button', { name: 'Open the draft again' })).toBeTruthy();

    // The link opens the document for someone without an account.
    const token = new URL(made!.url).pathname.split('/').pop()!;
    const shared = await fetch(`/api/share/${token}`, { credentials: 'omit' });
    expect(shared.status).toBe(200);
    expect(((await shared.json()) as { name: string }).name).toBe(document.name);
  });
});
