import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZTeam, ZTeamDetail, ZTeamInvitation, ZTeamInvitationPreview } from '../../../contract/teams.ts';
import { type TTeamRole } from '../../../contract/team-roles.ts';
import { documents, teamInvitations, workspaces } from '../../db/schema.ts';
import { createTestAppWithMail, NOTICES_ACCOUNT } from '../../test/mail-test-app.ts';
import type { TSmtpStandIn } from '../../test/smtp-stand-in.ts';
import { errorOf, signUpVerified, TestClient, type TTestApp } from '../../test/test-app.ts';

/*
 * Teams through the API, with invitations sent through a real SMTP server on loopback: making a
 * team, inviting and accepting, roles, removing and leaving, and what each workspace shows.
 */

let t: TTestApp;
let smtp: TSmtpStandIn;
let installationAdmin: TestClient;
let people = 0;

beforeAll(async () => {
  ({
    t,
    smtp,
    admin: installationAdmin,
  } = await createTestAppWithMail({
    adminEmail: 'admin@teams.example.com',
    mail: { ...NOTICES_ACCOUNT, fromAddress: 'notices@formwork.example.com', fromName: 'Formwork' },
  }));
});
afterAll(async () => {
  await t?.close();
});

async function person(name = 'member') {
  const client = new TestClient(t.app);
  const email = `${name}-${++people}@teams.example.com`;
  const { user } = await signUpVerified(t, client, { email, firstName: name[0]!.toUpperCase() + name.slice(1) }, smtp);
  return { client, id: user.id, email };
}

async function teamOf(owner: TestClient, name = 'Acme HR') {
  const created = await owner.post('/api/teams', { name });
  expect(created.statusCode, created.body).toBe(201);
  return (created.json() as { id: string }).id;
}

/** The invitation link's token in the `count`-th invitation to `address` (the last when not given), once it has arrived. */
async function invitationTokenFor(address: string, count?: number): Promise<string> {
  for (let i = 0; ; i++) {
    const mails = await Promise.all(smtp.messages.filter((m) => m.to.includes(address)).map((m) => smtp.parse(m)));
    const invitations = mails.filter((m) => m.text?.includes('/invite/'));
    if (invitations.length >= (count ?? 1)) {
      return /\/invite\/([A-Za-z0-9_-]{43})/.exec(invitations[(count ?? invitations.length) - 1]!.text!)![1]!;
    }
    if (i > 400) throw new Error(`no invitation reached ${address}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Invites `member` into the team as `role` and accepts as them. */
async function join(owner: TestClient, teamId: string, member: { client: TestClient; email: string }, role: TTeamRole) {
  const invited = await owner.post(`/api/teams/${teamId}/invitations`, { email: member.email, role });
  expect(invited.statusCode, invited.body).toBe(201);
  // The invitation is mailed before the answer: the last one to the address is this one.
  const token = await invitationTokenFor(member.email);
  const accepted = await member.client.post(`/api/invitations/${token}/accept`);
  expect(accepted.statusCode, accepted.body).toBe(200);
  return token;
}

const offerLetter = {
  name: 'Offer Letter',
  content: { elements: [{ id: 'p', type: 'paragraph', content: 'Dear {{client_name}}, welcome aboard.' }] },
  placeholders: [{ name: 'client_name', type: 'text', required: true }],
};

describe('a team', () => {
  it('shares its formats and documents with its members, apart from each person’s own', async () => {
    const owner = await person('owner');
    const teamId = await teamOf(owner.client);
    owner.client.team = teamId;
    const format = await owner.client.post('/api/formats', offerLetter);
    expect(format.statusCode, format.body).toBe(201);
    const formatId = (format.json() as { id: string }).id;

    const member = await person('member');
    await join(owner.client, teamId, member, 'member');
    member.client.team = teamId;
    expect(((await member.client.get('/api/formats')).json() as { id: string }[]).map((f) => f.id)).toEqual([formatId]);
    const made = await member.client.post('/api/documents', { formatId, data: { client_name: 'Jane Doe' } });
    expect(made.statusCode, made.body).toBe(201);
    const documentId = (made.json() as { id: string }).id;
    // The document is the team's, made by the member.
    const [row] = await t.database.db.select().from(documents).where(eq(documents.id, documentId));
    expect(row).toMatchObject({ ownerId: teamId, createdBy: member.id });
    expect((await owner.client.get(`/api/documents/${documentId}`)).statusCode).toBe(200);

    // Each person's own workspace stays their own.
    member.client.team = undefined;
    owner.client.team = undefined;
    expect((await member.client.get('/api/formats')).json()).toEqual([]);
    expect((await owner.client.get(`/api/documents/${documentId}`)).statusCode).toBe(404);

    // Someone outside the team cannot tell it exists.
    const outsider = await person('outsider');
    outsider.client.team = teamId;
    const refused = await outsider.client.get('/api/formats');
    expect(refused.statusCode).toBe(404);
    expect(errorOf(refused).message).toBe('Team not found.');
    expect((await outsider.client.get(`/api/teams/${teamId}`)).statusCode).toBe(404);
  });

  it('names the team in a link’s address for reads (a download), never for writes', async () => {
    const owner = await person('linker');
    const teamId = await teamOf(owner.client, 'Links Ltd');
    owner.client.team = teamId;
    const format = (await owner.client.post('/api/formats', offerLetter)).json() as { id: string };
    const made = (await owner.client.post('/api/documents', { formatId: format.id, data: { client_name: 'Jane Doe' } })).json() as { id: string };
    owner.client.team = undefined;
    const download = await owner.client.get(`/api/documents/${made.id}/download?team=${teamId}`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect((await owner.client.get(`/api/documents/${made.id}/download`)).statusCode).toBe(404);
    const outsider = await person('peeker');
    expect((await outsider.client.get(`/api/documents/${made.id}/download?team=${teamId}`)).statusCode).toBe(404);
    // A write with the team only in its address acts in the person's own workspace.
    const written = await owner.client.post(`/api/formats?team=${teamId}`, offerLetter);
    expect(written.statusCode).toBe(201);
    expect(((await owner.client.get('/api/formats')).json() as unknown[]).length).toBe(1);
  });

  it('lists the teams a person is in with their role, and refuses a blank or overlong name', async () => {
    const owner = await person('lister');
    expect((await owner.client.post('/api/teams', { name: '  ' })).statusCode).toBe(400);
    const long = await owner.client.post('/api/teams', { name: 'x'.repeat(81) });
    expect(errorOf(long).fields?.name).toMatch(/under 80/);
    const teamId = await teamOf(owner.client, 'Zeta Legal');
    await teamOf(owner.client, 'alpha clinic');
    const teams = ((await owner.client.get('/api/teams')).json() as unknown[]).map((x) => ZTeam.parse(x));
    expect(teams.map((x) => [x.name, x.role, x.memberCount, x.plan])).toEqual([
      ['alpha clinic', 'owner', 1, 'free'],
      ['Zeta Legal', 'owner', 1, 'free'],
    ]);
    const renamed = await owner.client.request('PATCH', `/api/teams/${teamId}`, { name: 'Zeta Law' });
    expect(ZTeam.parse(renamed.json()).name).toBe('Zeta Law');
  });

  it('is deleted with everything it owns once its owner types its name', async () => {
    const owner = await person('deleter');
    const teamId = await teamOf(owner.client, 'Short Lived');
    owner.client.team = teamId;
    expect((await owner.client.post('/api/formats', offerLetter)).statusCode).toBe(201);
    owner.client.team = undefined;
    const wrong = await owner.client.request('DELETE', `/api/teams/${teamId}`, { confirm: 'short lived' });
    expect(wrong.statusCode).toBe(400);
    expect(errorOf(wrong).message).toContain('Short Lived');
    expect((await owner.client.request('DELETE', `/api/teams/${teamId}`, { confirm: 'Short Lived' })).statusCode).toBe(204);
    expect((await owner.client.get('/api/teams')).json()).toEqual([]);
    owner.client.team = teamId;
    expect((await owner.client.get('/api/formats')).statusCode).toBe(404);
  });
});

describe('invitations', () => {
  it('arrive by email, show who invited whom, and work once', async () => {
    const owner = await person('inviter');
    const teamId = await teamOf(owner.client, 'Estate Agents');
    const invitee = await person('invitee');
    const invited = await owner.client.post(`/api/teams/${teamId}/invitations`, { email: invitee.email.toUpperCase(), role: 'editor' });
    expect(invited.statusCode, invited.body).toBe(201);
    expect(ZTeamInvitation.parse(invited.json())).toMatchObject({ email: invitee.email, role: 'editor', expired: false });
    const token = await invitationTokenFor(invitee.email);
    const mail = await smtp.parse(smtp.messages.filter((m) => m.to.includes(invitee.email)).at(-1)!);
    expect(mail.subject).toBe('Inviter Lovelace invited you to Estate Agents on Formwork');
    expect(mail.text).toContain('join the team “Estate Agents” on Formwork as an editor');

    const preview = ZTeamInvitationPreview.parse((await new TestClient(t.app).get(`/api/invitations/${token}`)).json());
    expect(preview).toMatchObject({ teamName: 'Estate Agents', invitedBy: 'Inviter Lovelace', email: invitee.email, role: 'editor', hasAccount: true });

    const accepted = await invitee.client.post(`/api/invitations/${token}/accept`);
    expect(ZTeam.parse(accepted.json())).toMatchObject({ id: teamId, role: 'editor', memberCount: 2 });
    expect((await invitee.client.post(`/api/invitations/${token}/accept`)).statusCode).toBe(404);
    expect((await new TestClient(t.app).get(`/api/invitations/${token}`)).statusCode).toBe(404);
    const detail = ZTeamDetail.parse((await owner.client.get(`/api/teams/${teamId}`)).json());
    expect(detail.members.map((m) => [m.email, m.role])).toEqual([
      [owner.email, 'owner'],
      [invitee.email, 'editor'],
    ]);
    expect(detail.invitations).toEqual([]);
  });

  it('lets the invited address create an account from the link when sign-ups are by invitation only', async () => {
    const owner = await person('closed');
    const teamId = await teamOf(owner.client, 'Closed Shop');
    const policy = await installationAdmin.request('PUT', '/api/admin/sign-up-policy', { mode: 'invitation', allowedDomains: [] });
    expect(policy.statusCode, policy.body).toBe(200);
    try {
      const address = `newcomer-${++people}@teams.example.com`;
      await owner.client.post(`/api/teams/${teamId}/invitations`, { email: address, role: 'member' });
      const token = await invitationTokenFor(address);
      const preview = ZTeamInvitationPreview.parse((await new TestClient(t.app).get(`/api/invitations/${token}`)).json());
      expect(preview.hasAccount).toBe(false);
      // The sign-up page reads the link's address as it does an administrator's invitation.
      expect((await new TestClient(t.app).post('/api/auth/invitation', { token })).json()).toEqual({ email: address });
      const body = { firstName: 'New', lastName: 'Comer', password: 'correct horse battery', invitation: token };
      const stranger = new TestClient(t.app);
      const refused = await stranger.post('/api/auth/sign-up', { ...body, email: `someone-else-${people}@teams.example.com` });
      expect(refused.statusCode).toBeGreaterThanOrEqual(400);
      const newcomer = new TestClient(t.app);
      const signedUp = await newcomer.post('/api/auth/sign-up', { ...body, email: address });
      expect([200, 202], signedUp.body).toContain(signedUp.statusCode);
    } finally {
      await installationAdmin.request('PUT', '/api/admin/sign-up-policy', { mode: 'open', allowedDomains: [] });
    }
  });

  it('refuses a link sent to another address, an expired one and a revoked one', async () => {
    const owner = await person('gatekeeper');
    const teamId = await teamOf(owner.client, 'Clinic');
    const meant = await person('meant');
    const other = await person('other');
    await owner.client.post(`/api/teams/${teamId}/invitations`, { email: meant.email, role: 'member' });
    const token = await invitationTokenFor(meant.email);
    const wrong = await other.client.post(`/api/invitations/${token}/accept`);
    expect(wrong.statusCode).toBe(403);
    expect(errorOf(wrong).message).toContain(`sent to ${meant.email}`);

    await t.database.db
      .update(teamInvitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(teamInvitations.email, meant.email));
    expect((await meant.client.post(`/api/invitations/${token}/accept`)).statusCode).toBe(404);

    const again = ZTeamInvitation.parse((await owner.client.post(`/api/teams/${teamId}/invitations`, { email: meant.email, role: 'member' })).json());
    const second = await invitationTokenFor(meant.email, 2);
    expect((await owner.client.request('DELETE', `/api/teams/${teamId}/invitations/${again.id}`)).statusCode).toBe(204);
    expect((await meant.client.post(`/api/invitations/${second}/accept`)).statusCode).toBe(404);
    expect(ZTeamDetail.parse((await owner.client.get(`/api/teams/${teamId}`)).json()).members).toHaveLength(1);
  });

  it('sends a new link on resend, and the old one stops working', async () => {
    const owner = await person('resender');
    const teamId = await teamOf(owner.client, 'Resend Co');
    const invitee = await person('late');
    const invitation = ZTeamInvitation.parse((await owner.client.post(`/api/teams/${teamId}/invitations`, { email: invitee.email, role: 'member' })).json());
    const first = await invitationTokenFor(invitee.email);
    expect((await owner.client.post(`/api/teams/${teamId}/invitations/${invitation.id}/resend`)).statusCode).toBe(200);
    const second = await invitationTokenFor(invitee.email, 2);
    expect(second).not.toBe(first);
    expect((await invitee.client.post(`/api/invitations/${first}/accept`)).statusCode).toBe(404);
    expect((await invitee.client.post(`/api/invitations/${second}/accept`)).statusCode).toBe(200);
  });

  it('refuses inviting someone already in the team, and an admin making an owner', async () => {
    const owner = await person('careful');
    const teamId = await teamOf(owner.client, 'Careful Ltd');
    const admin = await person('admin');
    await join(owner.client, teamId, admin, 'admin');
    const already = await admin.client.post(`/api/teams/${teamId}/invitations`, { email: owner.email, role: 'member' });
    expect(already.statusCode).toBe(409);
    const owners = await admin.client.post(`/api/teams/${teamId}/invitations`, { email: 'new-owner@teams.example.com', role: 'owner' });
    expect(owners.statusCode).toBe(403);
  });
});

describe('roles and members', () => {
  it('keeps at least one owner, and lets only an owner change an owner', async () => {
    const owner = await person('sole');
    const teamId = await teamOf(owner.client, 'Sole Owner');
    const admin = await person('second');
    await join(owner.client, teamId, admin, 'admin');
    const demote = await owner.client.request('PATCH', `/api/teams/${teamId}/members/${owner.id}`, { role: 'admin' });
    expect(demote.statusCode).toBe(409);
    expect(errorOf(demote).message).toMatch(/at least one owner/);
    expect((await owner.client.request('DELETE', `/api/teams/${teamId}/members/${owner.id}`)).statusCode).toBe(409);
    expect((await admin.client.request('PATCH', `/api/teams/${teamId}/members/${owner.id}`, { role: 'member' })).statusCode).toBe(403);
    expect((await admin.client.request('DELETE', `/api/teams/${teamId}/members/${owner.id}`)).statusCode).toBe(403);
    // Once there is a second owner, the first may step down.
    expect((await owner.client.request('PATCH', `/api/teams/${teamId}/members/${admin.id}`, { role: 'owner' })).statusCode).toBe(200);
    expect((await owner.client.request('PATCH', `/api/teams/${teamId}/members/${owner.id}`, { role: 'editor' })).statusCode).toBe(200);
  });

  it('takes a removed member’s access at once and keeps what they made in the team', async () => {
    const owner = await person('keeper');
    const teamId = await teamOf(owner.client, 'Keeps Work');
    const editor = await person('leaver');
    await join(owner.client, teamId, editor, 'editor');
    editor.client.team = teamId;
    const format = await editor.client.post('/api/formats', offerLetter);
    expect(format.statusCode, format.body).toBe(201);
    expect((await owner.client.request('DELETE', `/api/teams/${teamId}/members/${editor.id}`)).statusCode).toBe(204);
    expect((await editor.client.get('/api/formats')).statusCode).toBe(404);
    owner.client.team = teamId;
    expect(((await owner.client.get('/api/formats')).json() as unknown[]).length).toBe(1);
  });

  it('stops the invitations an admin sent once they are removed or no longer an admin; a resend by an admin starts one again', async () => {
    const owner = await person('warden');
    const teamId = await teamOf(owner.client, 'Watchful Co');
    const admin = await person('departing-admin');
    await join(owner.client, teamId, admin, 'admin');
    // Two invitations the admin sends while still one: one to another address of theirs, one to a colleague.
    const altEmail = `alt-${admin.email}`;
    const toAlt = ZTeamInvitation.parse((await admin.client.post(`/api/teams/${teamId}/invitations`, { email: altEmail, role: 'admin' })).json());
    const altToken = await invitationTokenFor(altEmail);
    const colleague = await person('colleague');
    const toColleague = ZTeamInvitation.parse((await admin.client.post(`/api/teams/${teamId}/invitations`, { email: colleague.email, role: 'member' })).json());
    const colleagueToken = await invitationTokenFor(colleague.email);

    // Demoted below admin: neither link shows or works.
    expect((await owner.client.request('PATCH', `/api/teams/${teamId}/members/${admin.id}`, { role: 'editor' })).statusCode).toBe(200);
    expect((await colleague.client.get(`/api/invitations/${colleagueToken}`)).statusCode).toBe(404);
    expect((await colleague.client.post(`/api/invitations/${colleagueToken}/accept`)).statusCode).toBe(404);
    // Made an admin again, what they sent stands again.
    expect((await owner.client.request('PATCH', `/api/teams/${teamId}/members/${admin.id}`, { role: 'admin' })).statusCode).toBe(200);
    expect(ZTeamInvitationPreview.parse((await colleague.client.get(`/api/invitations/${colleagueToken}`)).json()).email).toBe(colleague.email);

    // Removed: the invitation to their other address does not let them back in.
    expect((await owner.client.request('DELETE', `/api/teams/${teamId}/members/${admin.id}`)).statusCode).toBe(204);
    const alt = new TestClient(t.app);
    await signUpVerified(t, alt, { email: altEmail, firstName: 'Alt' }, smtp);
    expect((await alt.get(`/api/invitations/${altToken}`)).statusCode).toBe(404);
    expect((await alt.post(`/api/invitations/${altToken}/accept`)).statusCode).toBe(404);
    expect(ZTeamDetail.parse((await owner.client.get(`/api/teams/${teamId}`)).json()).members.map((m) => m.userId)).toEqual([owner.id]);

    // The owner still sees both as open; resending one sends it in the owner's name, and it works.
    const open = ZTeamDetail.parse((await owner.client.get(`/api/teams/${teamId}`)).json()).invitations.map((i) => i.id);
    expect(open.sort()).toEqual([toAlt.id, toColleague.id].sort());
    const resent = await owner.client.post(`/api/teams/${teamId}/invitations/${toColleague.id}/resend`);
    expect(resent.statusCode, resent.body).toBe(200);
    const renewed = await invitationTokenFor(colleague.email, 2);
    expect(ZTeamInvitationPreview.parse((await colleague.client.get(`/api/invitations/${renewed}`)).json()).invitedBy).toMatch(/^Warden\b/);
    expect((await colleague.client.post(`/api/invitations/${renewed}/accept`)).statusCode).toBe(200);
  });

  it('lets a member leave, and refuses a member changing roles', async () => {
    const owner = await person('host');
    const teamId = await teamOf(owner.client, 'Open Door');
    const member = await person('guest');
    await join(owner.client, teamId, member, 'member');
    expect((await member.client.request('PATCH', `/api/teams/${teamId}/members/${member.id}`, { role: 'admin' })).statusCode).toBe(403);
    expect((await member.client.request('DELETE', `/api/teams/${teamId}/members/${member.id}`)).statusCode).toBe(204);
    expect((await member.client.get('/api/teams')).json()).toEqual([]);
  });

  it('keeps a team’s only owner from deleting their account while others remain; a team of one goes with its member', async () => {
    const owner = await person('departing');
    const teamId = await teamOf(owner.client, 'Handover Ltd');
    const solo = await teamOf(owner.client, 'Just Me');
    const member = await person('stays');
    await join(owner.client, teamId, member, 'member');
    const refused = await owner.client.request('DELETE', '/api/user', { password: 'correct horse battery' });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(errorOf(refused).message).toContain('“Handover Ltd”');
    expect((await owner.client.request('PATCH', `/api/teams/${teamId}/members/${member.id}`, { role: 'owner' })).statusCode).toBe(200);
    expect((await owner.client.request('DELETE', '/api/user', { password: 'correct horse battery' })).statusCode).toBe(204);
    const left = ZTeamDetail.parse((await member.client.get(`/api/teams/${teamId}`)).json());
    expect(left.members.map((m) => [m.email, m.role])).toEqual([[member.email, 'owner']]);
    expect(await t.database.db.select().from(workspaces).where(eq(workspaces.id, solo))).toEqual([]);
  });

  it('copies a format with its uploaded image into a team the person edits in, and not into one where they only fill', async () => {
    const owner = await person('mover');
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#36c' } })
      .png()
      .toBuffer();
    const uploaded = await owner.client.upload('/api/upload/image', 'image', 'logo.png', png);
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const logo = (uploaded.json() as { url: string }).url;
    const format = await owner.client.post('/api/formats', {
      ...offerLetter,
      content: { elements: [{ id: 'logo', type: 'image', src: logo, width: 40, height: 40 }, ...offerLetter.content.elements] },
    });
    expect(format.statusCode, format.body).toBe(201);
    const formatId = (format.json() as { id: string }).id;
    const teamId = await teamOf(owner.client, 'Destination');
    const copied = await owner.client.post(`/api/formats/${formatId}/copy-to-team`, { teamId });
    expect(copied.statusCode, copied.body).toBe(201);
    const copy = copied.json() as { id: string; version: number; content: { elements: { src?: string }[] } };
    expect(copy.version).toBe(1);
    const copiedLogo = copy.content.elements[0]!.src!;
    expect(copiedLogo).not.toBe(logo);
    owner.client.team = teamId;
    const image = await owner.client.get(copiedLogo);
    expect(image.statusCode).toBe(200);
    expect(((await owner.client.get('/api/formats')).json() as { id: string }[]).map((f) => f.id)).toEqual([copy.id]);
    owner.client.team = undefined;
    // The original stays, and the copy's image is the team's own: not readable from the personal workspace.
    expect((await owner.client.get(`/api/formats/${formatId}`)).statusCode).toBe(200);
    expect((await owner.client.get(copiedLogo)).statusCode).toBe(404);

    const other = await person('fills');
    const otherTeam = await teamOf(other.client, 'Fill Only');
    await join(other.client, otherTeam, owner, 'member');
    expect((await owner.client.post(`/api/formats/${formatId}/copy-to-team`, { teamId: otherTeam })).statusCode).toBe(403);
    expect((await owner.client.post(`/api/formats/${formatId}/copy-to-team`, { teamId: 'no-such-team' })).statusCode).toBe(404);
  });
});
