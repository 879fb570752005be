// @vitest-environment happy-dom
import { waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { createFormat } from '../../test/fixtures';
import { findDialog, renderApp, screen, signUp } from '../../test/render-app';
import { withMailServer } from '../../test/with-mail-server';

const mail = withMailServer('mail-admin@example.com', { fromName: 'Formwork' });

beforeEach(async () => {
  await signUp(mail.server);
});

/** Fills a client's name and email, generates, and returns the success dialog. */
async function generate() {
  const format = await createFormat('Welcome letter', [
    { name: 'client_name', label: 'Client name', type: 'text', required: true },
    { name: 'client_email', label: 'Client email', type: 'email', required: false },
    { name: 'cc_email', label: 'Copy to', type: 'email', required: false },
  ]);
  const view = renderApp(`/data-entry/${format.id}`);
  await view.user.type(await screen.findByLabelText(/^Client name/), 'Ada Lovelace');
  await view.user.type(screen.getByLabelText(/^Client email/), 'ada@client.test');
  await view.user.type(screen.getByLabelText(/^Copy to/), 'boss@client.test');
  await view.user.click(screen.getByRole('button', { name: 'Generate Document' }));
  const dialog = await findDialog('Document generated');
  return { ...view, dialog };
}

describe('the success dialog and the keyboard', () => {
  it('focuses Download, so Enter downloads, and gives focus back to Generate when closed', async () => {
    const { user, dialog } = await generate();
    const download = within(dialog).getByRole('link', { name: /^Download/ });
    await waitFor(() => expect(document.activeElement).toBe(download));

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Document generated' })).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Generate Document' })));
  });

  it('opens Email addressed to the value of the format’s first email placeholder', async () => {
    const { user, dialog } = await generate();
    await user.click(within(dialog).getByRole('button', { name: /^Email/ }));
    const email = await findDialog('Email the document');
    await within(email).findByRole('form', { name: 'Email the document' });
    // The first email placeholder's value, not the second's.
    expect(await within(email).findByRole('button', { name: 'Remove ada@client.test' })).toBeTruthy();
    expect(within(email).queryByRole('button', { name: 'Remove boss@client.test' })).toBeNull();
  });
});
