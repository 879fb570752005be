// @vitest-environment happy-dom
import { waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TBulkJob } from '../../../contract/bulk';
import { createFormat, finishedBatch as batchOf } from '../../test/fixtures';
import { findDialog, renderApp, screen, setPlan, signUp } from '../../test/render-app';
import { withMailServer } from '../../test/with-mail-server';

const mail = withMailServer('merge-admin@example.com');
const server = mail.server;

/** A finished batch of four documents from a spreadsheet whose third column holds addresses, one unusable. */
async function finishedBatch(tag: string): Promise<TBulkJob> {
  const { user } = await signUp(server);
  // A paid plan: the Free plan sends the standard words only, with no subject or message of one's own.
  await setPlan(server, user.id, 'basic');
  const format = await createFormat('Welcome Letter', [{ name: 'client_name', label: 'Client name', type: 'text', required: true }]);
  const csv = [
    'Client Name,City,Email address',
    `Ada,London,ada.${tag}@client.test`,
    `Grace,Arlington,grace.${tag}@client.test`,
    `Edsger,Austin,not-an-address`,
    `Barbara,Boston,barbara.${tag}@client.test`,
  ].join('\n');
  return batchOf(format, `members-${tag}.csv`, csv);
}

async function openMergeDialog(job: TBulkJob) {
  const view = renderApp(`/batches/${job.id}`);
  const card = await screen.findByRole('region', { name: 'Email each document' });
  await view.user.click(await within(card).findByRole('button', { name: 'Email each document' }));
  const dialog = await findDialog('Email each document');
  return { ...view, card, dialog };
}

describe('mail merge from a batch', () => {
  it('finds the address column, shows the first email filled in, and lists the rows it cannot send', async () => {
    const job = await finishedBatch('a');
    const { user, dialog } = await openMergeDialog(job);
    const column = within(dialog).getByLabelText('Send each document to the address in') as HTMLSelectElement;
    expect(column.selectedOptions[0]!.textContent).toContain('Email address');

    const subject = within(dialog).getByLabelText('Subject');
    await user.clear(subject);
    await user.click(within(dialog).getByRole('button', { name: /Preview the first email/ }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Enter a subject.');

    await user.type(subject, 'Welcome, {{{{client_name}}');
    const message = within(dialog).getByLabelText('Message');
    await user.clear(message);
    await user.type(message, 'Hello from {{{{City}}. Attached: ');
    await user.click(within(within(dialog).getByRole('group', { name: 'Insert a field into the message' })).getByRole('button', { name: 'Document name' }));
    expect((message as HTMLTextAreaElement).value).toBe('Hello from {{City}}. Attached: {{document}}');
    await user.click(within(dialog).getByRole('button', { name: /Preview the first email/ }));

    const checking = await findDialog('Check the first email');
    const preview = within(checking).getByTestId('merge-preview');
    expect(preview.textContent).toContain('To: ada.a@client.test');
    expect(preview.textContent).toContain('Subject: Welcome, Ada');
    expect(checking.textContent).toContain('3 emails will be sent; 1 row has no usable address and will be listed as not sent.');
    expect(within(checking).getByText(/^Row 4:/)).toBeTruthy();
    // A tag the format does not know prints as nothing, and the dialog says so.
    expect(within(checking).getByText('Some fields are not in this format')).toBeTruthy();
    expect(mail.smtp.messages.filter((m) => m.to.some((to) => to.endsWith('.a@client.test')))).toEqual([]);
  });

  it('sends one email per usable row and shows the merge as done', async () => {
    const job = await finishedBatch('b');
    const { user, dialog, card } = await openMergeDialog(job);
    await user.click(within(dialog).getByRole('button', { name: /Preview the first email/ }));
    const checking = await findDialog('Check the first email');
    await user.click(within(checking).getByRole('button', { name: 'Send 3 emails' }));
    expect(await screen.findByText('3 documents are being emailed.')).toBeTruthy();

    await within(card).findByText('Done');
    expect(within(card).getByTestId('merge-sent').textContent).toBe('3');
    expect(within(card).getByTestId('merge-failed').textContent).toBe('1');
    const to = mail.smtp.messages.flatMap((m) => m.to).filter((a) => a.endsWith('.b@client.test'));
    expect(to.sort()).toEqual(['ada.b@client.test', 'barbara.b@client.test', 'grace.b@client.test']);
    await waitFor(() => expect(within(card).queryByRole('button', { name: 'Email each document' })).toBeNull());
  });
});
