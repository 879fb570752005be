// @vitest-environment happy-dom
import { waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { TFormat } from '../../../contract/formats';
import { TEAM_HEADER } from '../../../contract/team-roles';
import { api, request } from '../../lib/api';
import { createFormat } from '../../test/fixtures';
import { findDialog, renderApp, screen, signUp, withServer } from '../../test/render-app';

const server = withServer({ env: { SIGN_UPS_PER_IP_PER_HOUR: '100' } });
// Copying opens the team's formats: the next test starts in its own workspace again.
afterEach(() => window.history.replaceState(null, '', '/'));

describe('Copy to team', () => {
  it('copies a personal format into a team and opens the team’s formats', async () => {
    await signUp(server);
    await createFormat('Offer Letter', []);
    const { id: teamId } = await api.post<{ id: string }>('/api/teams', { name: 'Acme HR' });

    const { user } = renderApp('/formats');
    await user.click(await screen.findByRole('button', { name: 'Copy Offer Letter to a team' }));
    const dialog = await findDialog('Copy “Offer Letter” to a team');
    expect((dialog.querySelector('select') as HTMLSelectElement).selectedOptions[0]!.textContent).toBe('Acme HR (Owner)');
    await user.click(screen.getByRole('button', { name: 'Copy format' }));

    await waitFor(() => expect(window.location.search).toBe(`?team=${teamId}`));
    expect(window.location.pathname).toBe('/formats');
    expect(await screen.findByText('Offer Letter')).toBeTruthy();
    const inTeam = (await (await request('GET', '/api/formats')).json()) as TFormat[];
    expect(inTeam.map((f) => f.name)).toEqual(['Offer Letter']);
    // The team's header was what named it: the personal workspace keeps its own.
    const personal = (await (await fetch('/api/formats', { headers: { [TEAM_HEADER]: '' } })).json()) as TFormat[];
    expect(personal.map((f) => f.name)).toEqual(['Offer Letter']);
  });

  it('is not offered without a team in which the person creates formats', async () => {
    await signUp(server);
    await createFormat('Lonely Letter', []);
    renderApp('/formats');
    expect(await screen.findByText('Lonely Letter')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Copy .* to a team/ })).toBeNull();
  });
});
