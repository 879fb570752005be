// @vitest-environment happy-dom
import { within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { findDialog, renderApp, screen, setPlan, signUp, withServer } from '../../test/render-app';

// Loopback is let through, so an endpoint on this machine counts as public; 10.x stays private.
const server = withServer({ env: { IMAGE_FETCH_ALLOWED_IPS: '127.0.0.1' } });
const ENDPOINT = 'http://127.0.0.1:9/formwork/hooks';

beforeEach(async () => {
  const { user } = await signUp(server);
  await setPlan(server, user.id, 'enterprise');
});

async function openCard() {
  const view = renderApp('/settings?tab=api');
  await screen.findByText('No endpoints yet.');
  const url = screen.getByLabelText('Endpoint URL');
  const add = screen.getByRole('button', { name: 'Add endpoint' });
  return { ...view, url, add };
}

describe('the webhooks card', () => {
  it('refuses an address that is not a web address, or that points into a private network', async () => {
    const { user, url, add } = await openCard();
    await user.type(url, 'ftp://files.example.com/drop');
    await user.click(add);
    expect(await screen.findByText('Enter the full address, starting with https://.')).toBeTruthy();
    expect(url.getAttribute('aria-invalid')).toBe('true');

    await user.clear(url);
    await user.type(url, 'http://10.0.0.5/hooks');
    await user.click(add);
    expect(
      await screen.findByText('This address is not allowed: it points to a private or local network. Give an address on the public internet.'),
    ).toBeTruthy();
    expect(screen.getByText('No endpoints yet.')).toBeTruthy();
  });

  it('asks for at least one event', async () => {
    const { user, url, add } = await openCard();
    await user.type(url, ENDPOINT);
    await user.click(screen.getByRole('checkbox', { name: /document\.created/ }));
    await user.click(add);
    const events = screen.getByRole('group', { name: 'Events' });
    expect(await within(events).findByText('Choose at least one event.')).toBeTruthy();
    expect(events.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('No endpoints yet.')).toBeTruthy();
  });

  it('adds an endpoint, shows its signing secret once, and deletes it after asking', async () => {
    const { user, url, add } = await openCard();
    await user.type(url, ENDPOINT);
    await user.click(screen.getByRole('checkbox', { name: /batch\.completed/ }));
    await user.click(add);

    const shown = await screen.findByTestId('new-webhook-secret');
    const secret = (within(shown).getByLabelText('Webhook signing secret') as HTMLInputElement).value;
    expect(secret.length).toBeGreaterThan(20);
    const list = screen.getByRole('list', { name: 'Webhook endpoints' });
    expect(within(list).getByText(ENDPOINT)).toBeTruthy();
    expect(within(list).getByText('document.created')).toBeTruthy();
    expect(within(list).getByText('batch.completed')).toBeTruthy();
    expect(within(list).getByText('Active')).toBeTruthy();
    await user.click(within(shown).getByRole('button', { name: 'I have stored it' }));
    expect(document.body.textContent).not.toContain(secret);

    await user.click(within(list).getByRole('button', { name: `Delete the endpoint ${ENDPOINT}` }));
    const ask = await findDialog('Delete this endpoint?', 'alertdialog');
    await user.click(within(ask).getByRole('button', { name: 'Delete endpoint' }));
    expect(await screen.findByText('No endpoints yet.')).toBeTruthy();
  });
});
