// @vitest-environment happy-dom
import { within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TDocument } from '../../contract/documents';
import type { TSignatureRequest, TSignatureRequestDetail, TSignerInput } from '../../contract/signature-requests';
import { api } from '../lib/api';
import { failRequestsTo } from '../test/failing-request';
import { createFormat } from '../test/fixtures';
import { findDialog, renderApp, screen, setPlan, signUp } from '../test/render-app';
import { withMailServer } from '../test/with-mail-server';

/*
 * The signer's page as someone without an account sees it, against a real server that sends the
 * invitations through an SMTP stand-in. happy-dom has no canvas, so drawing is left to the browser
 * journey; typing is what a keyboard user does.
 */

const { server } = withMailServer('sign-admin@example.com');
let formatId: string;

beforeAll(async () => {
  const owner = await signUp(server, { firstName: 'Olivia' });
  await setPlan(server, owner.user.id, 'basic');
  const signing = [1, 2].flatMap((role) => [
    { name: `signature_${role}`, type: 'signature' as const, signer: role },
    { name: `name_${role}`, type: 'signer_name' as const, signer: role },
  ]);
  const format = await createFormat(
    'Tenancy Agreement',
    [{ name: 'tenant', label: 'Tenant', type: 'text', required: true }, ...signing],
    [
      { id: 'p', type: 'paragraph', content: 'This agreement is made with {{tenant}}.', align: 'left', bold: false, italic: false, underline: false },
      ...signing.map((p) => ({
        id: `e-${p.name}`,
        type: 'paragraph' as const,
        content: `{{${p.name}}}`,
        align: 'left' as const,
        bold: false,
        italic: false,
        underline: false,
      })),
    ],
  );
  formatId = format.id;
});

/** A new document sent to `signers` (in roles 1, 2, …) by the owner, who is still the one signed in. */
async function sendForSignature(signers: TSignerInput[]): Promise<TSignatureRequest> {
  const document = await api.post<TDocument>('/api/documents', { formatId, data: { tenant: 'Jane Doe' } });
  return api.post<TSignatureRequest>(`/api/documents/${document.id}/signature-requests`, { signers, message: 'Please sign the tenancy agreement.' });
}

const pathOf = (signUrl: string) => new URL(signUrl).pathname;
const detailOf = (request: TSignatureRequest) => api.get<TSignatureRequestDetail>(`/api/signature-requests/${request.id}`);

describe('the signing page', () => {
  it('lets the signer sign by typing, once they agree, and then says what happens next', async () => {
    const request = await sendForSignature([
      { name: 'Alice Landlord', email: 'alice@example.com', order: 1 },
      { name: 'Bob Tenant', email: 'bob@example.com', order: 2 },
    ]);
    const { user } = renderApp(pathOf(request.signers[0]!.signUrl));

    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe(request.documentName);
    expect(screen.getByText(/asks you to sign/)).toBeTruthy();
    expect(screen.getByText('Please sign the tenancy agreement.')).toBeTruthy();
    const panel = screen.getByRole('region', { name: 'Sign' });
    expect(within(panel).getByText('Your name: Alice Landlord')).toBeTruthy();

    // Type is where a keyboard starts, filled in with the signer's name.
    expect(within(panel).getByRole('tab', { name: 'Type' }).getAttribute('aria-selected')).toBe('true');
    const typed = within(panel).getByLabelText('Type your name as your signature') as HTMLInputElement;
    expect(typed.value).toBe('Alice Landlord');
    const signButton = within(panel).getByRole('button', { name: 'Sign' }) as HTMLButtonElement;
    expect(signButton.disabled).toBe(true);
    expect(within(panel).getByText('To sign, tick the box to agree to sign electronically.')).toBeTruthy();

    await user.clear(typed);
    expect(within(panel).getByText('To sign, add your signature and tick the box to agree to sign electronically.')).toBeTruthy();
    await user.type(typed, 'A. Landlord');
    await user.click(within(panel).getByRole('checkbox', { name: /I agree to sign this document electronically/ }));
    expect(signButton.disabled).toBe(false);
    await user.click(signButton);

    expect(await screen.findByRole('heading', { name: 'Signed.' })).toBeTruthy();
    expect(screen.getByText('You will receive the signed PDF by email once everyone has signed.')).toBeTruthy();
    const detail = await detailOf(request);
    expect(detail.status).toBe('partly_signed');
    expect(detail.signers.map((s) => s.status)).toEqual(['signed', 'notified']);
    expect(detail.audit.events.find((e) => e.type === 'signed')?.details).toMatchObject({ signature: 'typed' });
  });

  it('shows a later signer the document and whose turn it is, with no Sign, names in any script', async () => {
    const request = await sendForSignature([
      { name: 'فاطمة الزهراء', email: 'fatima@example.com', order: 1 },
      { name: '山田 太郎', email: 'taro@example.com', order: 2 },
    ]);
    renderApp(pathOf(request.signers[1]!.signUrl));

    const note = await screen.findByText(/It is not your turn yet/);
    expect(note.textContent).toBe('It is not your turn yet: فاطمة الزهراء signs first. We will email you when it is.');
    expect(note.querySelector('bdi')?.textContent).toBe('فاطمة الزهراء');
    expect(screen.queryByRole('button', { name: 'Sign' })).toBeNull();
    expect(screen.getByRole('heading', { level: 1 }).getAttribute('dir')).toBe('auto');
  });

  it('declines with a reason, which the sender is given', async () => {
    const request = await sendForSignature([
      { name: 'Carol Guarantor', email: 'carol@example.com' },
      { name: 'Dan Tenant', email: 'dan@example.com' },
    ]);
    const { user } = renderApp(pathOf(request.signers[0]!.signUrl));

    await user.click(await screen.findByRole('button', { name: 'Decline' }));
    const dialog = await findDialog('Decline to sign');
    await user.click(within(dialog).getByRole('button', { name: 'Decline to sign' }));
    expect(within(dialog).getByText('Say why you decline, so the sender knows.')).toBeTruthy();

    await user.type(within(dialog).getByLabelText('Why do you decline?'), 'The rent is wrong.');
    await user.click(within(dialog).getByRole('button', { name: 'Decline to sign' }));

    expect(await screen.findByRole('heading', { name: 'You declined to sign.' })).toBeTruthy();
    expect(screen.getByText(/has been told\./)).toBeTruthy();
    const detail = await detailOf(request);
    expect(detail.status).toBe('declined');
    expect(detail.signers[0]).toMatchObject({ status: 'declined', declineReason: 'The rent is wrong.' });
  });

  it('shows one page for a link that does not work, whatever the reason', async () => {
    renderApp(`/sign/${'x'.repeat(43)}`);
    expect(await screen.findByRole('heading', { name: 'This signing link is not valid' })).toBeTruthy();
    expect(screen.getByText(/Ask the sender for a new link\./)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Sign' })).toBeNull();
  });

  it('says what the server said when the page fails for another reason', async () => {
    const token = 'y'.repeat(43);
    // Any link the server cannot find is a 404; other failures come only from its database.
    const restore = failRequestsTo(`/api/sign/${token}`, 503, 'Signing is paused for maintenance.');
    try {
      renderApp(`/sign/${token}`);
      expect(await screen.findByRole('heading', { name: 'The signing page could not be loaded' })).toBeTruthy();
      expect(screen.getByText('Signing is paused for maintenance.')).toBeTruthy();
      expect(screen.queryByText(/Check your connection/)).toBeNull();
      expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
    } finally {
      restore();
    }
  });
});
