// @vitest-environment happy-dom
import { waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderApp, screen, setPlan, signUp, withServer } from '../../test/render-app';
import { startSmtpStandIn, type TSmtpStandIn } from '../../test/stand-ins';

// The company's own mail server, as an Enterprise account sets it up. The installation has none.
let smtp: TSmtpStandIn;
beforeAll(async () => {
  smtp = await startSmtpStandIn({ accounts: { 'sales@acme.test': 'right-password' } });
});
// Outbound connections to private addresses are refused unless listed: the stand-in is on loopback.
const server = withServer(() => ({ env: { IMAGE_FETCH_ALLOWED_IPS: '127.0.0.1' }, background: { mailTrustedCa: [smtp.ca] } }));
afterAll(async () => {
  await smtp.close();
});

async function openTab(plan: 'free' | 'enterprise') {
  const { user: me } = await signUp(server);
  await setPlan(server, me.id, plan);
  const view = renderApp('/settings?tab=email');
  await screen.findByTestId('sends-with');
  return view;
}

async function fillIn(view: Awaited<ReturnType<typeof openTab>>, form: HTMLElement, password: string) {
  const { user } = view;
  await user.type(within(form).getByLabelText('Email address'), 'sales@acme.test');
  await user.type(within(form).getByLabelText('Password'), password);
  await user.type(within(form).getByLabelText('SMTP host'), smtp.host);
  await user.clear(within(form).getByLabelText(/^SMTP port/));
  await user.type(within(form).getByLabelText(/^SMTP port/), String(smtp.port));
}

describe('the email settings tab', () => {
  it('on a plan without its own mail server, says there is none and which plan has it', async () => {
    await openTab('free');
    expect(screen.getByTestId('sends-with').textContent).toBe('Not set up');
    expect(screen.getByText('Send from your own mailbox with the Enterprise plan')).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Your own mail server' })).toBeNull();
  });

  it('refuses a mail server on a private network, in the field’s own words', async () => {
    const view = await openTab('enterprise');
    const form = screen.getByRole('form', { name: 'Your own mail server' });
    await view.user.type(within(form).getByLabelText('Email address'), 'sales@acme.test');
    await view.user.type(within(form).getByLabelText('Password'), 'right-password');
    await view.user.type(within(form).getByLabelText('SMTP host'), '10.1.2.3');
    await view.user.click(within(form).getByRole('button', { name: 'Save settings' }));
    // Said once, under the field it is about, and read out with that field.
    const alert = await within(form).findByRole('alert');
    expect(alert.textContent).toContain('points to a private or local network');
    const host = within(form).getByLabelText('SMTP host');
    expect(host.getAttribute('aria-invalid')).toBe('true');
    expect(host.getAttribute('aria-describedby')).toBe(alert.id);
    expect(screen.getByTestId('sends-with').textContent).toBe('Not set up');
  });

  it('points at what is missing before saving anything', async () => {
    const view = await openTab('enterprise');
    const form = screen.getByRole('form', { name: 'Your own mail server' });
    await view.user.type(within(form).getByLabelText('Email address'), 'sales@acme.test');
    await view.user.type(within(form).getByLabelText('SMTP host'), 'mail.acme.test');
    await view.user.click(within(form).getByRole('button', { name: 'Save settings' }));
    const password = within(form).getByLabelText('Password');
    expect(password.getAttribute('aria-invalid')).toBe('true');
    expect(within(form).getByRole('alert').textContent).toBe('Enter the password.');
    expect(password.getAttribute('aria-describedby')).toBe(within(form).getByRole('alert').id);
    expect(screen.getByTestId('sends-with').textContent).toBe('Not set up');
    expect(within(form).getByRole('button', { name: 'Send test email' }).hasAttribute('disabled')).toBe(true);
  });

  it('saves the account’s own server and sends a test email through it', async () => {
    const view = await openTab('enterprise');
    const form = screen.getByRole('form', { name: 'Your own mail server' });
    await fillIn(view, form, 'right-password');
    await view.user.click(within(form).getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText(`Documents you email now go out through ${smtp.host}.`)).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('sends-with').textContent).toBe('Your server'));
    // The password is kept on the server and never shown again.
    expect(within(form).getByLabelText('Password')).toHaveProperty('value', '');

    const before = smtp.messages.length;
    await view.user.click(within(form).getByRole('button', { name: 'Send test email' }));
    const result = await within(form).findByTestId('test-email-result');
    expect(within(result).getByText(/^Test email sent to /)).toBeTruthy();
    expect(smtp.messages.slice(before)).toMatchObject([{ user: 'sales@acme.test', from: 'sales@acme.test' }]);
  });

  it('says clearly when the mail server refuses the password', async () => {
    const view = await openTab('enterprise');
    const form = screen.getByRole('form', { name: 'Your own mail server' });
    await fillIn(view, form, 'Not-The-Password');
    await view.user.click(within(form).getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(screen.getByTestId('sends-with').textContent).toBe('Your server'));
    await view.user.click(within(form).getByRole('button', { name: 'Send test email' }));
    const result = await within(form).findByTestId('test-email-result');
    expect(within(result).getByText('The test email was not sent')).toBeTruthy();
    expect(result.textContent).toContain('refused the user name or password');
    expect(result.textContent).not.toContain('Not-The-Password');
  });
});
