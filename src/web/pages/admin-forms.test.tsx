// @vitest-environment happy-dom
import { within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { findDialog, renderApp, screen, signUp, withServer } from '../test/render-app';

const ADMIN_EMAIL = 'forms-admin@example.com';
const server = withServer({ env: { ADMIN_EMAILS: ADMIN_EMAIL } });

describe('the admin forms', () => {
  // The admin signs up in the first test and stays signed in for the next.
  it('check an invitation address and a user’s own limit before sending, with their own messages', async () => {
    // The last to sign up is the one at the browser.
    const other = await signUp(server, { email: 'someone@example.com' });
    await signUp(server, { email: ADMIN_EMAIL });
    const { user } = renderApp('/admin?tab=users');

    await user.click(await screen.findByRole('button', { name: 'Invite people' }));
    const invite = await findDialog('Invite people');
    await user.type(within(invite).getByLabelText('Email address'), 'not-an-address');
    await user.click(within(invite).getByRole('button', { name: 'Send invitation' }));
    expect(await within(invite).findByText('Enter a valid email address.')).toBeTruthy();
    await user.click(within(invite).getByRole('button', { name: 'Cancel' }));

    const [planButton] = await screen.findAllByRole('button', { name: `Change plan for ${other.email}` });
    await user.click(planButton!);
    const plan = await findDialog('Plan and monthly limit');
    await user.type(within(plan).getByLabelText(/Monthly document limit/), '12x');
    await user.click(within(plan).getByRole('button', { name: 'Save changes' }));
    expect(await within(plan).findByText('Enter a whole number from 0 to 100,000,000, or leave it blank.')).toBeTruthy();
  });

  it('checks the sign-up domains as the server will, naming the one that is not a domain', async () => {
    const { user } = renderApp('/admin?tab=settings');
    const form = await screen.findByRole('form', { name: 'Sign-ups' });
    await user.type(within(form).getByLabelText(/Allowed email domains/), 'example.com\nexample');
    await user.click(within(form).getByRole('button', { name: 'Save sign-ups' }));
    expect(await within(form).findByText('“example” is not a domain. Enter domains such as example.com, one per line.')).toBeTruthy();
  });
});
