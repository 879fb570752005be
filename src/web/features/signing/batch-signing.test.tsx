// @vitest-environment happy-dom
import { waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TBulkJob } from '../../../contract/bulk';
import { createFormat, finishedBatch as batchOf } from '../../test/fixtures';
import { findDialog, renderApp, screen, setPlan, signUp } from '../../test/render-app';
import { withMailServer } from '../../test/with-mail-server';

const mail = withMailServer('batch-signing-admin@example.com');
const server = mail.server;

/** A finished batch of three leases; one row has no usable address. */
async function finishedBatch(): Promise<TBulkJob> {
  const { user } = await signUp(server);
  await setPlan(server, user.id, 'basic');
  const format = await createFormat('Lease', [{ name: 'tenant', label: 'Tenant', type: 'text', required: true }]);
  const csv = ['Tenant,Email address', 'Ada Tenant,ada.lease@client.test', 'Grace Tenant,grace.lease@client.test', 'Edsger Tenant,not-an-address'].join('\n');
  return batchOf(format, 'leases.csv', csv);
}

describe('sending a batch for signature', () => {
  it('picks the name and address columns, sends one request per usable row, lists the rest, and shows where they stand', async () => {
    const job = await finishedBatch();
    const { user } = renderApp(`/batches/${job.id}`);
    const card = await screen.findByRole('region', { name: 'Send each for signature' });
    await user.click(await within(card).findByRole('button', { name: 'Send each for signature' }));
    const dialog = await findDialog('Send each document for signature');
    expect((within(dialog).getByLabelText('Signer’s name') as HTMLSelectElement).selectedOptions[0]!.textContent).toContain('Tenant');
    expect((within(dialog).getByLabelText('Signer’s email address') as HTMLSelectElement).selectedOptions[0]!.textContent).toContain('Email address');
    await user.type(within(dialog).getByLabelText(/Message/), 'Please sign your lease.');
    await user.click(within(dialog).getByRole('button', { name: 'Send 3 for signature' }));

    const outcome = await within(dialog).findByRole('status');
    expect(outcome.textContent).toContain('2 sent now');
    expect(within(dialog).getByText(/^Row 4: .*not a valid email address/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));

    await waitFor(() => expect(card.textContent).toContain('2 of 3 documents sent for signature.'));
    expect(within(card).getByRole('list', { name: 'Signature requests by status' }).textContent).toMatch(/Sent\s*2/);
    await waitFor(() => expect(mail.smtp.messages.filter((m) => m.to.some((to) => to.endsWith('.lease@client.test')))).toHaveLength(2));
  });
});
