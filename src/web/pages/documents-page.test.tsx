// @vitest-environment happy-dom
import { cleanup, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TDocument } from '../../contract/documents';
import { api } from '../lib/api';
import { createFormat } from '../test/fixtures';
import { renderApp, screen, setPlan, signUp, withServer } from '../test/render-app';
import { inTeam, makeTeam, removeFromTeam } from '../test/teams';

const server = withServer();

/** `count` documents from one format, made one after another (the last is the newest). */
async function documents(count: number): Promise<TDocument[]> {
  const format = await createFormat('Receipt', [{ name: 'client_name', label: 'Client name', type: 'text', required: true }]);
  const made: TDocument[] = [];
  for (let i = 1; i <= count; i++) made.push(await api.post<TDocument>('/api/documents', { formatId: format.id, data: { client_name: `Client ${i}` } }));
  return made;
}

const list = () => screen.getByRole('list', { name: 'Documents and batches' });

describe('Recent Documents', () => {
  it('shows a new user an empty state that leads to generating a first document', async () => {
    await signUp(server);
    renderApp('/documents');
    expect(await screen.findByText('No documents yet')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Generate your first document' }).getAttribute('href')).toBe('/formats');
    expect(screen.queryByRole('list', { name: 'Documents and batches' })).toBeNull();
  });

  it('lists the documents newest first, with their format, and says how many there are', async () => {
    await signUp(server);
    const [first, second] = await documents(2);
    renderApp('/documents');
    await screen.findByRole('list', { name: 'Documents and batches' });
    const rows = within(list()).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByTitle(second!.name)).toBeTruthy();
    expect(within(rows[1]!).getByTitle(first!.name)).toBeTruthy();
    expect(within(rows[0]!).getAllByText(/Receipt/).length).toBeGreaterThan(0);
    expect(await screen.findByText('Showing 2 documents · 2 generated in all')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('shows 25 at first and the rest on Load more', async () => {
    const { user: me } = await signUp(server);
    await setPlan(server, me.id, 'basic');
    const made = await documents(27);
    const { user } = renderApp('/documents');
    await screen.findByRole('list', { name: 'Documents and batches' });
    expect(within(list()).getAllByRole('listitem')).toHaveLength(25);
    expect(within(list()).queryByTitle(made[0]!.name)).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await within(list()).findByTitle(made[0]!.name);
    expect(within(list()).getAllByRole('listitem')).toHaveLength(27);
    expect(screen.getByText('Showing 27 documents · 27 generated in all')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('says in the server’s words why Load more failed', async () => {
    const { user: me } = await signUp(server);
    const teamId = await makeTeam('Acme');
    await setPlan(server, teamId, 'basic');
    await inTeam(teamId, () => documents(26));
    const { user } = renderApp(`/documents?team=${teamId}`);
    try {
      await screen.findByRole('list', { name: 'Documents and batches' });
      await waitFor(() => expect(within(list()).getAllByRole('listitem')).toHaveLength(25));

      // Taken out of the team meanwhile (as another owner could), the next page is refused.
      await removeFromTeam(server, teamId, me.id);
      await user.click(screen.getByRole('button', { name: 'Load more' }));
      expect((await screen.findByRole('alert')).textContent).toBe('Team not found.');
      expect(screen.queryByText(/Check your connection/)).toBeNull();
      expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
    } finally {
      // The next test starts in the personal workspace.
      window.history.replaceState(null, '', '/');
    }
  });

  it('says on the field when a day is not one the filter takes, from the address or typed, and keeps Clear filters', async () => {
    await signUp(server);
    const [made] = await documents(1);
    const { user } = renderApp('/documents?from=20245-01-01');
    const from = await screen.findByLabelText('From');
    await waitFor(() => expect(from.getAttribute('aria-invalid')).toBe('true'));
    const fromError = screen.getByText('“20245-01-01” is not a date this filter takes. Use a day from 1970-01-01 to 9998-12-31.');
    expect(from.getAttribute('aria-describedby')).toBe(fromError.id);
    expect([from.getAttribute('min'), from.getAttribute('max')]).toEqual(['1970-01-01', '9998-12-31']);
    expect(screen.queryByRole('list', { name: 'Documents and batches' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await within(await screen.findByRole('list', { name: 'Documents and batches' })).findByTitle(made!.name);
    expect(window.location.search).toBe('');
    expect(screen.getByLabelText('From').getAttribute('aria-invalid')).toBeNull();

    const to = screen.getByLabelText('To');
    await user.type(to, '1969-12-31');
    await waitFor(() => expect(to.getAttribute('aria-invalid')).toBe('true'));
    const toError = screen.getByText('“1969-12-31” is not a date this filter takes. Use a day from 1970-01-01 to 9998-12-31.');
    expect(to.getAttribute('aria-describedby')).toBe(toError.id);
    expect(screen.getByRole('button', { name: 'Clear filters' })).toBeTruthy();
  });

  it('searches as you type, filters by format and days, keeps it all in the address, and clears it', async () => {
    const { user: me } = await signUp(server);
    await setPlan(server, me.id, 'basic');
    const receipt = await createFormat('Receipt', [{ name: 'client_name', label: 'Client name', type: 'text', required: true }]);
    const invoice = await createFormat('Invoice', [{ name: 'customer', label: 'Customer', type: 'text', required: true }]);
    const make = (formatId: string, data: Record<string, string>) => api.post<TDocument>('/api/documents', { formatId, data });
    const jane = await make(receipt.id, { client_name: 'Jane Doe' });
    const ann = await make(receipt.id, { client_name: 'Ann Lee' });
    // No client name: the document is named by its first text field, so it can be told apart and found.
    const acme = await make(invoice.id, { customer: 'Acme Corp' });
    expect(acme.name).toMatch(/^Invoice - Acme Corp - /);

    const { user } = renderApp('/documents');
    await within(await screen.findByRole('list', { name: 'Documents and batches' })).findByTitle(jane.name);
    await user.type(screen.getByRole('searchbox', { name: 'Search documents' }), 'JANE');
    await waitFor(() => expect(within(list()).queryByTitle(ann.name)).toBeNull());
    expect(within(list()).getByTitle(jane.name)).toBeTruthy();
    expect(new URLSearchParams(window.location.search).get('q')).toBe('JANE');
    expect(await screen.findByText('Showing 1 document that matches')).toBeTruthy();

    // A reload keeps the search.
    cleanup();
    renderApp(window.location.pathname + window.location.search);
    await within(await screen.findByRole('list', { name: 'Documents and batches' })).findByTitle(jane.name);
    expect((screen.getByRole('searchbox', { name: 'Search documents' }) as HTMLInputElement).value).toBe('JANE');
    expect(within(list()).getAllByRole('listitem')).toHaveLength(1);

    // The format filter, with the search cleared.
    cleanup();
    const second = renderApp('/documents');
    await within(await screen.findByRole('list', { name: 'Documents and batches' })).findByTitle(ann.name);
    const format = screen.getByLabelText('Format');
    await waitFor(() =>
      expect(
        within(format)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toContain('Invoice'),
    );
    await second.user.selectOptions(format, 'Invoice');
    await waitFor(() => expect(within(list()).queryByTitle(jane.name)).toBeNull());
    expect(within(list()).getByTitle(acme.name)).toBeTruthy();
    expect(new URLSearchParams(window.location.search).get('format')).toBe(invoice.id);

    // Days after today match nothing: a clear message, and one button back to everything.
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    await second.user.type(screen.getByLabelText('From'), tomorrow);
    expect(await screen.findByText('No documents match')).toBeTruthy();
    expect(new URLSearchParams(window.location.search).get('from')).toBe(tomorrow);
    await second.user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await within(await screen.findByRole('list', { name: 'Documents and batches' })).findByTitle(jane.name);
    expect(within(list()).getAllByRole('listitem')).toHaveLength(3);
    expect(window.location.search).toBe('');
    expect((screen.getByLabelText('Format') as HTMLSelectElement).value).toBe('');
  });
});
