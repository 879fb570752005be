// @vitest-environment happy-dom
import { waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TDocument } from '../../../contract/documents';
import type { TFormat } from '../../../contract/formats';
import { api } from '../../lib/api';
import { formatWithDocument } from '../../test/fixtures';
import { renderApp, screen, signUp, withServer } from '../../test/render-app';
import { inTeam, joinTeam, makeTeam, signIn } from '../../test/teams';

// Each test signs several people up, more than a network's hourly allowance of new accounts.
const server = withServer({ env: { SIGN_UPS_PER_IP_PER_HOUR: '100' } });

const list = () => screen.getByRole('list', { name: 'Documents and batches' });
const rowOf = (document: TDocument) => within(list()).getByTitle(document.name).closest('li')!;

const makeDocument = (format: TFormat, clientName: string) => api.post<TDocument>('/api/documents', { formatId: format.id, data: { client_name: clientName } });

/** A team where the owner Olive made a format and a document, and the member Mary made one too; Olive is signed in. */
async function teamWithTwoMakers() {
  const member = await signUp(server, { firstName: 'Mary' });
  const owner = await signUp(server, { firstName: 'Olive' });
  const teamId = await makeTeam('Clinic');
  const { format, document: olives } = await inTeam(teamId, () => formatWithDocument('Olive’s client'));
  await joinTeam(server, teamId, owner, member);
  const marys = await inTeam(teamId, () => makeDocument(format, 'Mary’s client'));
  await signIn(owner);
  return { teamId, owner, member, olives, marys };
}

describe('who made what, in a team', () => {
  it('shows the owner a member’s name on their document, “You” on their own, and “Former member” once the member leaves', async () => {
    const { teamId, member, olives, marys } = await teamWithTwoMakers();
    const page = renderApp(`/documents?team=${teamId}`);
    await screen.findByRole('list', { name: 'Documents and batches' });
    await waitFor(() => expect(within(rowOf(marys)).getAllByText(/Mary Lovelace/).length).toBeGreaterThan(0));
    expect(within(rowOf(olives)).getAllByText(/^(Made by: )?You$/).length).toBeGreaterThan(0);
    page.unmount();

    const formats = renderApp(`/formats?team=${teamId}`);
    expect((await screen.findByTestId('format-made-by')).textContent).toBe('by you');
    formats.unmount();

    await api.delete(`/api/teams/${teamId}/members/${member.user.id}`);
    renderApp(`/documents?team=${teamId}`);
    await screen.findByRole('list', { name: 'Documents and batches' });
    await waitFor(() => expect(within(rowOf(marys)).getAllByText(/Former member/).length).toBeGreaterThan(0));
  });

  it('narrows the list to one member with the Made by filter, keeps the choice in the address, and goes back to everyone', async () => {
    const { teamId, member, olives, marys } = await teamWithTwoMakers();
    const { user } = renderApp(`/documents?team=${teamId}`);
    const filter = await screen.findByLabelText('Made by');
    expect(
      within(filter)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Everyone', 'You', 'Mary Lovelace']);
    await within(await screen.findByRole('list', { name: 'Documents and batches' })).findByTitle(olives.name);

    await user.selectOptions(filter, 'Mary Lovelace');
    await waitFor(() => expect(within(list()).queryByTitle(olives.name)).toBeNull());
    expect(within(list()).getByTitle(marys.name)).toBeTruthy();
    expect(within(list()).getAllByRole('listitem')).toHaveLength(1);
    const params = new URLSearchParams(window.location.search);
    expect(params.get('by')).toBe(member.user.id);
    expect(params.get('team')).toBe(teamId);
    expect(await screen.findByText('Showing 1 document made by Mary Lovelace')).toBeTruthy();

    await user.selectOptions(filter, 'Everyone');
    await waitFor(() => expect(within(list()).getByTitle(olives.name)).toBeTruthy());
    expect(new URLSearchParams(window.location.search).has('by')).toBe(false);
  });

  it('opens a link with the filter already applied', async () => {
    const { teamId, owner, olives, marys } = await teamWithTwoMakers();
    renderApp(`/documents?team=${teamId}&by=${owner.user.id}`);
    await within(await screen.findByRole('list', { name: 'Documents and batches' })).findByTitle(olives.name);
    expect(within(list()).queryByTitle(marys.name)).toBeNull();
    // The filter comes with the team's members, which may arrive after the list.
    expect(((await screen.findByLabelText('Made by')) as HTMLSelectElement).value).toBe(owner.user.id);
  });

  it('shows neither the column nor the filter in the personal workspace', async () => {
    window.history.replaceState(null, '', '/');
    await signUp(server);
    const { document } = await formatWithDocument();
    renderApp('/documents');
    await within(await screen.findByRole('list', { name: 'Documents and batches' })).findByTitle(document.name);
    expect(screen.queryByLabelText('Made by')).toBeNull();
    expect(screen.queryByText(/Made by/)).toBeNull();
  });
});
