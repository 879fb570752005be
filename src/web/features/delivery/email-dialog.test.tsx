// @vitest-environment happy-dom
import { waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TDocument } from '../../../contract/documents';
import { formatWithDocument } from '../../test/fixtures';
import { findDialog, renderApp, screen, signUp } from '../../test/render-app';
import { withMailServer } from '../../test/with-mail-server';

const mail = withMailServer('mail-admin@example.com', { fromName: 'Formwork' });
const server = mail.server;

/** Opens the email dialog from the document's row in Recent Documents. */
async function openEmailDialog(document: TDocument) {
  const view = renderApp('/documents');
  await view.user.click(await screen.findByRole('button', { name: `Email ${document.name}` }));
  const dialog = await findDialog('Email the document');
  await within(dialog).findByRole('form', { name: 'Email the document' });
  return { ...view, dialog };
}

describe('the email dialog', () => {
  it('asks for a recipient and points at a badly written address, sending nothing', async () => {
    await signUp(server);
    const { document } = await formatWithDocument();
    const before = mail.smtp.messages.length;
    const { user, dialog } = await openEmailDialog(document);
    expect(within(dialog).getByText(`${document.name}.pdf`)).toBeTruthy();

    await user.click(within(dialog).getByRole('button', { name: 'Send email' }));
    expect(within(dialog).getByText('Add at least one recipient.')).toBeTruthy();

    await user.type(within(dialog).getByLabelText('To'), 'jane.example.com{Enter}');
    await user.click(within(dialog).getByRole('button', { name: 'Send email' }));
    expect(within(dialog).getByText('Not a valid email address: jane.example.com')).toBeTruthy();
    expect(within(dialog).getByLabelText('To').getAttribute('aria-invalid')).toBe('true');
    expect(mail.smtp.messages.length).toBe(before);
  });

  it('sends the PDF through the mail server and says how it went', async () => {
    const { email } = await signUp(server, { firstName: 'Grace' });
    const { document } = await formatWithDocument();
    const { user, dialog } = await openEmailDialog(document);
    await user.type(within(dialog).getByLabelText('To'), 'jane@client.test{Enter}');
    expect(within(dialog).getByRole('button', { name: 'Remove jane@client.test' })).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Add Cc' }));
    await user.type(within(dialog).getByLabelText(/^Cc/), 'boss@client.test{Enter}');
    await user.click(within(dialog).getByRole('button', { name: 'Send email' }));

    const status = await within(dialog).findByTestId('delivery-status');
    await waitFor(() => expect(within(status).getByText('Sent to jane@client.test, boss@client.test')).toBeTruthy());
    const message = mail.smtp.messages.find((m) => m.to.includes('jane@client.test'));
    expect(message!.to).toContain('boss@client.test');
    const parsed = await mail.smtp.parse(message!);
    expect(parsed.attachments.map((a) => a.filename)).toEqual([`${document.name}.pdf`]);
    expect(parsed.replyTo?.[0]?.address ?? parsed.from?.address).toBe(email);

    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog', { name: 'Email the document' })).toBeNull();
  });

  it('holds sending for an account that has not verified its address, and says why', async () => {
    await signUp(server, { verified: false });
    const { document } = await formatWithDocument();
    const { dialog } = await openEmailDialog(document);
    expect(within(dialog).getByText('Verify your email address to send email')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Send email' }).hasAttribute('disabled')).toBe(true);
  });
});
