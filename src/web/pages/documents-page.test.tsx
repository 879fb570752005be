// @vitest-environment happy-dom
import { within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TDocument } from '../../contract/documents';
import { api } from '../lib/api';
import { createFormat } from '../test/fixtures';
import { renderApp, screen, setPlan, signUp, withServer } from '../test/render-app';

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
});
