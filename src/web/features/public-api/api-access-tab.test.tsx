// @vitest-environment happy-dom
import { within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { deleteApiKey } from '../../test/fixtures';
import { api } from '../../lib/api';
import { findDialog, renderApp, screen, setPlan, type TSignedIn, signUp, withServer } from '../../test/render-app';
import { joinTeam, makeTeam, signIn } from '../../test/teams';

const server = withServer();

async function onPlan(plan: 'free' | 'enterprise'): Promise<TSignedIn> {
  const signedIn = await signUp(server);
  await setPlan(server, signedIn.user.id, plan);
  return signedIn;
}

/** A call to the public API with `key` alone, as another program makes it (no session cookie). */
const callWith = (key: string) => fetch('/api/v1/formats', { headers: { Authorization: `Bearer ${key}` }, credentials: 'omit' });

async function openTab() {
  const view = renderApp('/settings?tab=api');
  const form = await screen.findByRole('form', { name: 'Create an API key' });
  return { ...view, form };
}

async function createKey(view: Awaited<ReturnType<typeof openTab>>, name: string, kind: RegExp = /^Live/) {
  await view.user.type(within(view.form).getByLabelText('Key name'), name);
  await view.user.click(within(view.form).getByRole('radio', { name: kind }));
  await view.user.click(within(view.form).getByRole('button', { name: 'Create key' }));
  const shown = await screen.findByTestId('new-api-key');
  return (within(shown).getByLabelText('New API key') as HTMLInputElement).value;
}

describe('the API access tab', () => {
  it('on a plan without API access, says which plan has it and offers no keys', async () => {
    await onPlan('free');
    renderApp('/settings?tab=api');
    expect(await screen.findByText('API access comes with the Enterprise plan')).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Create an API key' })).toBeNull();
  });

  it('creates a key, shows it once, and the key works against the API', async () => {
    await onPlan('enterprise');
    const view = await openTab();
    expect(await screen.findByText('No keys yet.')).toBeTruthy();
    const key = await createKey(view, 'Billing system');
    expect(key).toMatch(/^fw_live_/);
    expect(within(screen.getByTestId('new-api-key')).getByText('Your new key “Billing system”')).toBeTruthy();
    expect((await callWith(key)).status).toBe(200);

    const list = screen.getByRole('list', { name: 'API keys' });
    const row = within(list).getByTestId('api-key-row');
    expect(within(row).getByRole('button', { name: 'Revoke Billing system' })).toBeTruthy();
    expect(within(row).getByText('Live')).toBeTruthy();
    expect(within(row).getByLabelText(`Key ending in ${key.slice(-4)}`)).toBeTruthy();
    // The list never holds the key itself.
    expect(list.textContent).not.toContain(key);

    await view.user.click(screen.getByRole('button', { name: 'I have stored it' }));
    expect(screen.queryByTestId('new-api-key')).toBeNull();
    expect(document.body.textContent).not.toContain(key);
    expect(screen.queryByDisplayValue(key)).toBeNull();
  });

  it('copies the new key to the clipboard', async () => {
    await onPlan('enterprise');
    const view = await openTab();
    const key = await createKey(view, 'Warehouse');
    await view.user.click(within(screen.getByTestId('new-api-key')).getByRole('button', { name: 'Copy' }));
    expect(await screen.findByText('API Key Copied')).toBeTruthy();
    expect(await navigator.clipboard.readText()).toBe(key);
  });

  it('lists test keys apart from live ones', async () => {
    await onPlan('enterprise');
    const view = await openTab();
    const key = await createKey(view, 'Staging', /^Test/);
    expect(key).toMatch(/^fw_test_/);
    const row = within(screen.getByRole('list', { name: 'API keys' })).getByTestId('api-key-row');
    expect(within(row).getByText('Test')).toBeTruthy();
  });

  it('in a team, says who made each key, and that one stops while its maker is no longer an admin', async () => {
    const owner = await signUp(server, { firstName: 'Olga' });
    const teamId = await makeTeam('Keys Co');
    await setPlan(server, teamId, 'enterprise');
    const maker = await signUp(server, { firstName: 'Ada' });
    await joinTeam(server, teamId, owner, maker, 'admin');
    const first = renderApp(`/settings?tab=api&team=${teamId}`);
    const key = await createKey({ ...first, form: await screen.findByRole('form', { name: 'Create an API key' }) }, 'Sync');
    const row = () => within(screen.getByRole('list', { name: 'API keys' })).getByTestId('api-key-row');
    expect(row().textContent).toContain('by Ada Lovelace');
    expect(within(row()).queryByText('Not working')).toBeNull();
    expect((await callWith(key)).status).toBe(200);
    first.unmount();

    await signIn(owner);
    await api.patch(`/api/teams/${teamId}/members/${maker.user.id}`, { role: 'editor' });
    expect((await callWith(key)).status).toBe(401);
    renderApp(`/settings?tab=api&team=${teamId}`);
    expect(await screen.findByText(/Ada Lovelace is no longer an admin of this team, so calls with this key are refused/)).toBeTruthy();
    expect(within(row()).getByText('Not working')).toBeTruthy();
    expect(within(row()).getByRole('button', { name: 'Revoke Sync' })).toBeTruthy();
  });

  it('revokes a key after asking, and the key stops working', async () => {
    await onPlan('enterprise');
    const view = await openTab();
    const kept = await createKey(view, 'CRM');
    await view.user.click(screen.getByRole('button', { name: 'I have stored it' }));
    const revoked = await createKey(view, 'Old script');
    await view.user.click(screen.getByRole('button', { name: 'I have stored it' }));
    expect(within(screen.getByRole('list', { name: 'API keys' })).getAllByTestId('api-key-row')).toHaveLength(2);

    await view.user.click(screen.getByRole('button', { name: 'Revoke Old script' }));
    const confirm = await findDialog('Revoke “Old script”?', 'alertdialog');
    await view.user.click(within(confirm).getByRole('button', { name: 'Revoke key' }));
    expect(await screen.findByText('Old script no longer works.')).toBeTruthy();

    const rows = within(screen.getByRole('list', { name: 'API keys' })).getAllByTestId('api-key-row');
    expect(
      rows.map((r) =>
        within(r)
          .getByRole('button', { name: /^Revoke / })
          .textContent?.trim(),
      ),
    ).toEqual(['Revoke CRM']);
    expect((await callWith(revoked)).status).toBe(401);
    expect((await callWith(kept)).status).toBe(200);
  });

  it('keeps the key chooser when one key’s usage fails, so All keys can be chosen again', async () => {
    await onPlan('enterprise');
    const first = await openTab();
    await createKey(first, 'Gone soon');
    // A fresh visit, so the chooser is drawn from an answer that certainly names the new key.
    first.unmount();
    const view = await openTab();
    const chooser = await screen.findByLabelText('Key');
    await within(chooser).findByRole('option', { name: /^Gone soon/ });

    // Deleted meanwhile (as from another tab), the key's own figures are refused.
    await deleteApiKey(server, 'Gone soon');
    await view.user.selectOptions(chooser, within(chooser).getByRole('option', { name: /^Gone soon/ }));
    expect(await screen.findByText('API key not found.')).toBeTruthy();

    await view.user.selectOptions(screen.getByLabelText('Key'), 'All keys');
    expect(await screen.findByText('Requests')).toBeTruthy();
    expect(screen.queryByText('API key not found.')).toBeNull();
  });
});
