// @vitest-environment happy-dom
import { waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { TDocument } from '../../../contract/documents';
import type { TSignatureRequest } from '../../../contract/signature-requests';
import { api } from '../../lib/api';
import { createFormat, paragraphUsing } from '../../test/fixtures';
import { findDialog, renderApp, screen, setPlan, signUp } from '../../test/render-app';
import { withMailServer } from '../../test/with-mail-server';

const mail = withMailServer('sign-admin@example.com', { fromName: 'Formwork' });
const server = mail.server;

const PLACEHOLDERS = [
  { name: 'tenant', label: 'Tenant', type: 'text', required: true },
  { name: 'signature_1', type: 'signature', signer: 1 },
  { name: 'signature_2', type: 'signature', signer: 2 },
] as const;

/** A tenancy agreement with signing fields for two signers, on a plan that may send for signature. */
async function agreementFormat() {
  const { user } = await signUp(server, { firstName: 'Olivia' });
  await setPlan(server, user.id, 'basic');
  return createFormat(
    'Tenancy Agreement',
    [...PLACEHOLDERS],
    PLACEHOLDERS.map((p, i) => ({ ...paragraphUsing([p.name]), id: `p${i}` })),
  );
}

async function agreement(): Promise<TDocument> {
  const format = await agreementFormat();
  return api.post<TDocument>('/api/documents', { formatId: format.id, data: { tenant: 'Jane Doe' } });
}

const requestsOf = (documentId: string) => api.get<TSignatureRequest[]>(`/api/documents/${documentId}/signature-requests`);
const signerRows = (dialog: HTMLElement) => within(dialog).getAllByRole('group', { name: /^Signer \d+$/ });

async function fillSigner(user: ReturnType<typeof renderApp>['user'], row: HTMLElement, name: string, email: string, order?: number) {
  await user.clear(within(row).getByLabelText('Name'));
  await user.type(within(row).getByLabelText('Name'), name);
  await user.clear(within(row).getByLabelText('Email'));
  await user.type(within(row).getByLabelText('Email'), email);
  if (order) await user.selectOptions(within(row).getByLabelText('Order'), String(order));
}

/** A signer signs from their own link, with no account. */
function signAs(signer: TSignatureRequest['signers'][number]) {
  const token = signer.signUrl.slice(signer.signUrl.lastIndexOf('/') + 1);
  return fetch(`/api/sign/${token}`, {
    method: 'POST',
    credentials: 'omit',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ consent: true, signature: { type: 'typed', text: signer.name } }),
  });
}

beforeEach(() => {
  mail.smtp.messages.length = 0;
});

describe('sending a document for signature', () => {
  it('from the success dialog: asks for two signers, shows what is wrong, sends, and follows the request', async () => {
    const format = await agreementFormat();
    const { user } = renderApp(`/data-entry/${format.id}`);
    await user.type(await screen.findByLabelText(/^Tenant/), 'Jane Doe');
    await user.click(screen.getByRole('button', { name: 'Generate Document' }));
    const success = await findDialog('Document generated');
    await user.click(within(success).getByRole('button', { name: /^eSign/ }));

    const dialog = await findDialog('Send for signature');
    await within(dialog).findByRole('form', { name: 'Send for signature' });
    // The format has signing fields for two signers: two rows, each in the same (any) order.
    expect(signerRows(dialog).map((row) => within(row).getByLabelText<HTMLSelectElement>('Order').value)).toEqual(['1', '1']);
    expect(within(dialog).getByText('Same number: they sign in any order. Higher numbers wait for lower ones.')).toBeTruthy();
    expect(within(dialog).getByLabelText<HTMLInputElement>('Open for (days)').value).toBe('30');
    expect(within(dialog).getByRole('switch', { name: 'Send reminders' }).getAttribute('aria-checked')).toBe('true');

    await user.click(within(dialog).getByRole('button', { name: 'Send for signature' }));
    const [first] = signerRows(dialog);
    // The form checks its fields asynchronously: the messages come a moment after the click.
    expect(await within(first!).findByText('Enter the signer’s name.')).toBeTruthy();
    expect(within(first!).getByText('Enter a valid email address.')).toBeTruthy();
    expect(within(first!).getByLabelText('Name').getAttribute('aria-invalid')).toBe('true');

    // One signer for a document that needs two: the server says so, under the signers.
    await user.click(within(dialog).getByRole('button', { name: 'Remove Signer 2' }));
    await fillSigner(user, signerRows(dialog)[0]!, 'Alice Landlord', 'alice@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send for signature' }));
    expect(await within(dialog).findByText('Add 2 signers.')).toBeTruthy();
    expect(within(dialog).getByText('This document has signing fields for Signer 1, Signer 2: add 2 signers.')).toBeTruthy();

    await user.click(within(dialog).getByRole('button', { name: 'Add signer' }));
    await fillSigner(user, signerRows(dialog)[1]!, 'Bob Tenant', 'bob@example.com', 2);
    await user.type(within(dialog).getByLabelText(/^Copy to/), 'agent@example.com{Enter}');
    await user.type(within(dialog).getByLabelText(/^Message/), 'Please sign the tenancy agreement.');
    await user.click(within(dialog).getByRole('button', { name: 'Send for signature' }));

    expect(await screen.findByText('Sent for signature')).toBeTruthy();
    const panel = await findDialog('Signature status');
    expect(screen.queryByRole('dialog', { name: 'Send for signature' })).toBeNull();
    const signers = await within(panel).findAllByTestId('signer');
    expect(within(panel).getByTestId('request-status').textContent).toBe('Sent');
    expect(signers.map((s) => within(s).getByTestId('signer-status').textContent)).toEqual(['Invited', 'Waiting']);
    expect(within(panel).getByText('Please sign the tenancy agreement.')).toBeTruthy();

    const [document] = await api.get<TDocument[]>('/api/documents');
    expect(document!.status).toBe('out_for_signature');
    const [request] = await requestsOf(document!.id);
    expect(request!.signers.map((s) => [s.name, s.email, s.order])).toEqual([
      ['Alice Landlord', 'alice@example.com', 1],
      ['Bob Tenant', 'bob@example.com', 2],
    ]);
    expect(request!.cc).toEqual(['agent@example.com']);
    expect(request!.reminderDays).toEqual([3, 7]);

    await user.click(within(signers[0]!).getByRole('button', { name: 'Copy link for Alice Landlord' }));
    await waitFor(async () => expect(await navigator.clipboard.readText()).toBe(request!.signers[0]!.signUrl));
    await waitFor(() => expect(mail.smtp.messages.some((m) => m.to.includes('alice@example.com'))).toBe(true));
    expect(mail.smtp.messages.some((m) => m.to.includes('bob@example.com'))).toBe(false);

    // Alice signs from her link, elsewhere: the open panel follows by itself.
    expect((await signAs(request!.signers[0]!)).status).toBe(200);
    await waitFor(() => expect(within(panel).getByTestId('request-status').textContent).toBe('Partly signed'));
    const after = within(panel).getAllByTestId('signer');
    expect(after.map((s) => within(s).getByTestId('signer-status').textContent)).toEqual(['Signed', 'Invited']);
    expect(within(after[0]!).queryByRole('button', { name: /^Copy link/ })).toBeNull();
  });

  it('from Recent Documents: shows the status, reminds once an hour, and cancels after asking', async () => {
    const document = await agreement();
    await api.post(`/api/documents/${document.id}/signature-requests`, {
      signers: [
        { name: 'Alice Landlord', email: 'alice@example.com' },
        { name: 'Bob Tenant', email: 'bob@example.com' },
      ],
    });
    const { user } = renderApp('/documents');
    const row = await screen.findByTestId('document-row');
    expect(within(row).getByTestId('document-status').textContent).toBe('Out for signature');
    expect(within(row).queryByRole('button', { name: `Send ${document.name} for signature` })).toBeNull();
    await user.click(within(row).getByRole('button', { name: `Signature status of ${document.name}` }));

    const panel = await findDialog('Signature status');
    const signers = await within(panel).findAllByTestId('signer');
    expect(signers.map((s) => within(s).getByTestId('signer-status').textContent)).toEqual(['Invited', 'Invited']);
    expect(within(panel).getAllByRole('button', { name: /^Copy link for/ })).toHaveLength(2);

    await user.click(within(panel).getByRole('button', { name: /Audit trail/ }));
    expect(within(panel).getByText('Audit trail intact')).toBeTruthy();
    expect(within(within(panel).getByTestId('audit-events')).getAllByText('Created').length).toBe(1);

    await user.click(within(panel).getByRole('button', { name: 'Send reminder' }));
    expect(await screen.findByText('Reminder sent')).toBeTruthy();
    await user.click(within(panel).getByRole('button', { name: 'Send reminder' }));
    expect(await screen.findByText('You reminded them less than an hour ago. Give them time to answer.')).toBeTruthy();

    await user.click(within(panel).getByRole('button', { name: 'Cancel request' }));
    const confirm = await findDialog('Cancel this signature request?', 'alertdialog');
    await user.click(within(confirm).getByRole('button', { name: 'Yes, cancel it' }));
    expect(await screen.findByText('Request cancelled')).toBeTruthy();
    await waitFor(() => expect(within(panel).getByTestId('request-status').textContent).toBe('Cancelled'));
    expect(within(panel).queryByRole('button', { name: /^Copy link for/ })).toBeNull();
    expect(within(panel).queryByRole('button', { name: 'Send reminder' })).toBeNull();
    const [cancelled] = await requestsOf(document.id);
    expect(cancelled!.status).toBe('cancelled');

    // Closed, the row reads Generated again and offers to send once more.
    await user.click(within(panel).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(within(screen.getByTestId('document-row')).getByTestId('document-status').textContent).toBe('Generated'));
  });
});

describe('a signed document', () => {
  it('reads Signed, and offers the sealed PDF from its row and its panel', async () => {
    const document = await agreement();
    const request = await api.post<TSignatureRequest>(`/api/documents/${document.id}/signature-requests`, {
      signers: [
        { name: 'Alice Landlord', email: 'alice@example.com' },
        { name: 'Bob Tenant', email: 'bob@example.com' },
      ],
    });
    for (const signer of request.signers) expect((await signAs(signer)).status).toBe(200);
    await waitFor(async () => expect((await requestsOf(document.id))[0]!.status).toBe('completed'), { timeout: 30_000 });

    const { user } = renderApp('/documents');
    const row = await screen.findByTestId('document-row');
    expect(within(row).getByTestId('document-status').textContent).toBe('Signed');
    const download = await within(row).findByRole('link', { name: `Download signed PDF of ${document.name}` });
    const pdf = await fetch(download.getAttribute('href')!, { credentials: 'include' });
    expect(pdf.headers.get('content-type')).toContain('application/pdf');

    await user.click(within(row).getByRole('button', { name: `Signature status of ${document.name}` }));
    const panel = await findDialog('Signature status');
    await within(panel).findAllByTestId('signer');
    expect(within(panel).getByTestId('request-status').textContent).toBe('Completed');
    expect(within(panel).getByRole('link', { name: 'Download signed PDF' }).getAttribute('href')).toBe(download.getAttribute('href'));
    expect(within(panel).queryByRole('button', { name: 'Send reminder' })).toBeNull();
    expect(within(panel).queryByRole('button', { name: 'Cancel request' })).toBeNull();
  });
});
