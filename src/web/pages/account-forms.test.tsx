// @vitest-environment happy-dom
import { waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TUser } from '../../contract/user';
import { api } from '../lib/api';
import { renderApp, screen, signUp, withServer } from '../test/render-app';

const server = withServer();

describe('the account forms', () => {
  // First in the file: nobody is signed in yet.
  it('says above the form when the server refuses a sign-in, and lets the person try again', async () => {
    const { user } = renderApp('/login');
    const form = await screen.findByRole('form', { name: 'Sign in' });
    await user.type(within(form).getByLabelText('Email'), 'nobody@example.com');
    await user.type(within(form).getByLabelText('Password'), 'not the password');
    await user.click(within(form).getByRole('button', { name: 'Sign in' }));
    expect(await within(form).findByText('Invalid email or password.')).toBeTruthy();
    expect(within(form).getByRole('button', { name: 'Sign in' }).hasAttribute('disabled')).toBe(false);
  });

  it('words a single sign-on failure from its code, and shows no text an address carries', async () => {
    const known = renderApp('/login?error=account_suspended');
    expect(await screen.findByText('This account is suspended. Ask an administrator of this installation to restore it.')).toBeTruthy();
    known.unmount();
    renderApp(`/login?error=${encodeURIComponent('Your account is locked. Call +1 555 0100 to unlock it.')}`);
    expect(await screen.findByText('Sign-in failed. Please try again.')).toBeTruthy();
    expect(document.body.textContent).not.toContain('Call +1 555 0100');
  });

  it('checks a name with the contract before sending, then saves it', async () => {
    await signUp(server);
    const { user } = renderApp('/settings');
    const form = await screen.findByRole('form', { name: 'Name' });
    const first = within(form).getByLabelText('First name');
    await user.clear(first);
    await user.click(within(form).getByRole('button', { name: 'Save name' }));
    await waitFor(() => expect(first.getAttribute('aria-invalid')).toBe('true'));

    await user.type(first, 'Grace');
    await user.click(within(form).getByRole('button', { name: 'Save name' }));
    await waitFor(async () => expect((await api.get<{ user: TUser }>('/api/auth/session')).user.firstName).toBe('Grace'));
  });
});
