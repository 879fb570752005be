// @vitest-environment happy-dom
import { fireEvent, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TTeamDetail } from '../../../contract/teams';
import type { TTeamRole } from '../../../contract/team-roles';
import { api, request } from '../../lib/api';
import { createFormat, formatWithDocument } from '../../test/fixtures';
import { installWorkspaceLinks } from '../../lib/workspace-links';
import { findDialog, renderApp, screen, signUp, withServer } from '../../test/render-app';
import { inTeam, makeTeam, signIn, teamInvitation } from '../../test/teams';

// Each test signs several people up, more than a network's hourly allowance of new accounts.
const server = withServer({ env: { SIGN_UPS_PER_IP_PER_HOUR: '100' } });

const team = makeTeam;

const invitation = (teamId: string, invitedBy: string, email: string, role: TTeamRole) => teamInvitation(server, { teamId, invitedBy, email, role });

async function switchTo(user: ReturnType<typeof renderApp>['user'], name: RegExp) {
  await user.click(await screen.findByTestId('workspace-switcher'));
  await user.click(await screen.findByRole('menuitem', { name }));
}

describe('the workspace switcher', () => {
  it('shows a team’s formats in the team and the person’s own outside it, and links keep the workspace', async () => {
    await signUp(server, { firstName: 'Grace' });
    await createFormat('Personal Invoice', []);
    const teamId = await team('Acme HR');
    await inTeam(teamId, () => createFormat('Team Offer Letter', []));

    const { user } = renderApp('/formats');
    expect(await screen.findByText('Personal Invoice')).toBeTruthy();
    expect(screen.queryByText('Team Offer Letter')).toBeNull();
    expect(screen.getByTestId('workspace-switcher').textContent).toContain('Grace Lovelace');

    await switchTo(user, /Acme HR/);
    // The team's dashboard, and every in-app link stays in the team.
    await waitFor(() => expect(window.location.search).toBe(`?team=${teamId}`));
    expect(window.location.pathname).toBe('/');
    await waitFor(() => expect(screen.getByTestId('workspace-switcher').textContent).toContain('Acme HR'));
    const formatsLink = screen.getAllByRole('link', { name: 'My Formats' })[0]!;
    expect(formatsLink.getAttribute('href')).toBe(`/formats?team=${teamId}`);
    await user.click(formatsLink);
    expect(await screen.findByText('Team Offer Letter')).toBeTruthy();
    expect(screen.queryByText('Personal Invoice')).toBeNull();

    await switchTo(user, /Personal/);
    await waitFor(() => expect(window.location.search).toBe(''));
    await user.click(screen.getAllByRole('link', { name: 'My Formats' })[0]!);
    expect(await screen.findByText('Personal Invoice')).toBeTruthy();
    expect(screen.queryByText('Team Offer Letter')).toBeNull();
  });

  it('makes a team, saying in the server’s words what is wrong with a name, and opens it', async () => {
    await signUp(server);
    const { user } = renderApp('/');
    await user.click(await screen.findByTestId('workspace-switcher'));
    await user.click(await screen.findByRole('menuitem', { name: /Create team/ }));
    const dialog = await findDialog('Create a team');
    await user.type(within(dialog).getByLabelText('Team name'), 'x'.repeat(81));
    await user.click(within(dialog).getByRole('button', { name: 'Create team' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Keep the team’s name under 80 characters.');

    await user.clear(within(dialog).getByLabelText('Team name'));
    await user.type(within(dialog).getByLabelText('Team name'), 'Northwind Legal');
    await user.click(within(dialog).getByRole('button', { name: 'Create team' }));
    await waitFor(() => expect(screen.getByTestId('workspace-switcher').textContent).toContain('Northwind Legal'));
    const [made] = await api.get<{ id: string; name: string; role: string }[]>('/api/teams');
    expect(made).toMatchObject({ name: 'Northwind Legal', role: 'owner' });
    expect(window.location.search).toBe(`?team=${made!.id}`);
  });
});

describe('a team’s files', () => {
  afterEach(() => vi.restoreAllMocks());

  it('names the team in a download link before the browser follows it, and the server answers it', async () => {
    await signUp(server);
    const teamId = await team('Records');
    const { document } = await inTeam(teamId, () => formatWithDocument('Jane Doe'));
    // As main.tsx does at start-up.
    installWorkspaceLinks();
    renderApp(`/documents?team=${teamId}`);
    const link = await screen.findByRole('link', { name: `Download ${document.name}` });
    expect(link.getAttribute('href')).not.toContain('team=');
    // A middle click or "open in new tab" starts with a pointer press, as a click does.
    fireEvent.pointerDown(link);
    const href = link.getAttribute('href')!;
    expect(new URL(href, 'http://localhost').searchParams.get('team')).toBe(teamId);
    // What the browser would fetch, without the team header: the address alone names the team.
    const response = await fetch(href);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
  });

  it('says so when the address names a team the person is not in', async () => {
    const outsider = await signUp(server);
    await signUp(server);
    const teamId = await team('Private');
    await signIn(outsider);
    const { user } = renderApp(`/formats?team=${teamId}`);
    expect(await screen.findByText('You are not in this team')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Go to your own workspace' }));
    await waitFor(() => expect(window.location.search).toBe(''));
    expect(window.location.pathname).toBe('/');
  });
});

describe('Settings → Team', () => {
  it('says readably that invitations need a mail server, and changes a member’s role', async () => {
    const member = await signUp(server, { firstName: 'Mary' });
    const owner = await signUp(server, { firstName: 'Olive' });
    const teamId = await team('Clinic');
    const token = await invitation(teamId, owner.user.id, member.email, 'member');
    await signIn(member);
    await api.post(`/api/invitations/${token}/accept`);
    await signIn(owner);

    const { user } = renderApp(`/settings?team=${teamId}`);
    // In a team, Settings opens on the Team tab.
    const form = await screen.findByRole('form', { name: 'Invite someone' });
    await user.type(within(form).getByLabelText('Email address'), 'new.person@example.com');
    await user.click(within(form).getByRole('radio', { name: /^Editor/ }));
    await user.click(within(form).getByRole('button', { name: 'Send invitation' }));
    expect((await within(form).findByRole('alert')).textContent).toContain('this installation has no mail server');

    await user.selectOptions(screen.getByLabelText('Role of Mary Lovelace'), 'editor');
    expect(await screen.findByText('Mary Lovelace is now editor.')).toBeTruthy();
    const detail = await api.get<TTeamDetail>(`/api/teams/${teamId}`);
    expect(detail.members.find((m) => m.email === member.email)?.role).toBe('editor');
    // An owner's own row offers leaving, not a role: and as the only owner, not even that.
    const mine = screen.getAllByTestId('team-member-row').find((row) => row.textContent?.includes('(you)'))!;
    expect(within(mine).getByRole('button', { name: 'Leave team' }).hasAttribute('disabled')).toBe(true);
  });

  it('shows a member the team’s formats and settings without what their role cannot change', async () => {
    const member = await signUp(server, { firstName: 'Mo' });
    const owner = await signUp(server, { firstName: 'Otto' });
    const teamId = await team('Depot');
    await inTeam(teamId, () => createFormat('Delivery Note', []));
    const token = await invitation(teamId, owner.user.id, member.email, 'member');
    await signIn(member);
    await api.post(`/api/invitations/${token}/accept`);

    // The team's formats, to fill in: making and changing them is for editors.
    const formats = renderApp(`/formats?team=${teamId}`);
    expect(await screen.findByText('Delivery Note')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Fill data' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Delete Delivery Note' })).toBeNull();
    expect(screen.queryByRole('link', { name: /Edit|View/ })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Create New Format' })).toBeNull();
    formats.unmount();

    const { user } = renderApp(`/settings?team=${teamId}`);
    expect(await screen.findByText('Otto Lovelace')).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Invite someone' })).toBeNull();
    expect(screen.queryByLabelText('Role of Otto Lovelace')).toBeNull();
    expect(screen.queryByRole('tab', { name: /Billing/ })).toBeNull();
    await user.click(screen.getByRole('tab', { name: /API Access/ }));
    expect(await screen.findByText('Only team admins and owners manage API keys and webhooks')).toBeTruthy();
  });
});

describe('the invitation page', () => {
  it('lets the invited person join and opens the team’s dashboard; the link then stops working', async () => {
    const invitee = await signUp(server, { firstName: 'Ivy' });
    const owner = await signUp(server, { firstName: 'Oscar' });
    const teamId = await team('Estate Agents');
    const token = await invitation(teamId, owner.user.id, invitee.email, 'editor');
    await signIn(invitee);

    const { user, unmount } = renderApp(`/invite/${token}`);
    expect(await screen.findByRole('heading', { name: 'Oscar Lovelace invited you to join Estate Agents as an editor' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Join Estate Agents' }));
    await waitFor(() => expect(window.location.search).toBe(`?team=${teamId}`));
    expect(window.location.pathname).toBe('/');
    await waitFor(() => expect(screen.getByTestId('workspace-switcher').textContent).toContain('Estate Agents'));
    const [joined] = await api.get<{ id: string; role: string }[]>('/api/teams');
    expect(joined).toMatchObject({ id: teamId, role: 'editor' });
    unmount();

    renderApp(`/invite/${token}`);
    expect(await screen.findByRole('heading', { name: 'This invitation cannot be used' })).toBeTruthy();
    expect(screen.getByText(/not valid any more/)).toBeTruthy();
  });

  it('tells someone signed in with another address, and sends a signed-out visitor to sign in and back', async () => {
    const owner = await signUp(server, { firstName: 'Opal' });
    const teamId = await team('Bakery');
    const invitee = await signUp(server, { firstName: 'Ian' });
    await signIn(owner);
    const token = await invitation(teamId, owner.user.id, invitee.email, 'member');

    const { user } = renderApp(`/invite/${token}`);
    expect(await screen.findByText('This invitation is for another address')).toBeTruthy();
    expect(screen.getByText(new RegExp(`You are signed in as ${owner.email}`))).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Sign out' }));

    const signInLink = await screen.findByRole('link', { name: 'Sign in' });
    expect(signInLink.getAttribute('href')).toBe(`/login?next=%2Finvite%2F${token}`);
    await user.click(signInLink);
    const form = await screen.findByRole('form', { name: 'Sign in' });
    await user.type(within(form).getByLabelText('Email'), invitee.email);
    await user.type(within(form).getByLabelText('Password'), invitee.password);
    await user.click(within(form).getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('button', { name: 'Join Bakery' })).toBeTruthy();
    expect(window.location.pathname).toBe(`/invite/${token}`);
  });
});

describe('the sign-in page’s return address', () => {
  it('goes back only to a path on this site', async () => {
    const person = await signUp(server);
    // Signed out by the server's answer; the page it redirects to is not built for tests.
    await request('POST', '/api/logout').catch(() => undefined);
    const { user } = renderApp('/login?next=//evil.example.com/x');
    const form = await screen.findByRole('form', { name: 'Sign in' });
    await user.type(within(form).getByLabelText('Email'), person.email);
    await user.type(within(form).getByLabelText('Password'), person.password);
    await user.click(within(form).getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(window.location.pathname).toBe('/'));
    expect(window.location.host).toBe(new URL(server.origin).host);
  });
});
