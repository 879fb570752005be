// @vitest-environment happy-dom
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderApp, screen, signUp, withServer } from '../../test/render-app';

const ADMIN_EMAIL = 'seal-admin@example.com';
const server = withServer({ env: { ADMIN_EMAILS: ADMIN_EMAIL } });

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'formwork-seal-card-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A seal certificate as a CA's customer downloads it: a .p12 with a password. */
function p12File(name: string, password: string, keys = true): File {
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'k.pem', '-out', 'c.pem', '-days', '30', '-subj', '/CN=Acme Ltd seal'], {
    cwd: dir,
    stdio: 'pipe',
  });
  execFileSync('openssl', ['pkcs12', '-export', ...(keys ? ['-inkey', 'k.pem'] : ['-nokeys']), '-in', 'c.pem', '-out', name, '-passout', `pass:${password}`], {
    cwd: dir,
    stdio: 'pipe',
  });
  return new File([readFileSync(path.join(dir, name))], name, { type: 'application/x-pkcs12' });
}

describe('the document seal card', () => {
  it('shows the seal in use, says why an upload fails in words, then uses the uploaded certificate', async () => {
    await signUp(server, { email: ADMIN_EMAIL });
    const { user } = renderApp('/admin?tab=settings');
    const upload = await screen.findByRole('form', { name: 'Upload a seal certificate' });
    expect((await screen.findByTestId('seal-in-use')).textContent).toMatch(/^None yet/);

    const file = within(upload).getByLabelText(/PKCS #12 file/);
    await user.upload(file, p12File('seal.p12', 'right'));
    await user.type(within(upload).getByLabelText('File password'), 'wrong');
    await user.click(within(upload).getByRole('button', { name: 'Upload and use' }));
    expect((await within(upload).findByRole('alert')).textContent).toBe('The password does not open this file.');

    await user.upload(file, p12File('nokey.p12', 'pw', false));
    await user.clear(within(upload).getByLabelText('File password'));
    await user.type(within(upload).getByLabelText('File password'), 'pw');
    await user.click(within(upload).getByRole('button', { name: 'Upload and use' }));
    await waitFor(() => expect(within(upload).getByRole('alert').textContent).toBe('The file holds no private key.'));

    await user.upload(file, p12File('good.p12', 's3cret'));
    await user.clear(within(upload).getByLabelText('File password'));
    await user.type(within(upload).getByLabelText('File password'), 's3cret');
    await user.click(within(upload).getByRole('button', { name: 'Upload and use' }));
    await waitFor(() => expect(screen.getByTestId('seal-in-use').textContent).toContain('Acme Ltd seal'));
    expect(screen.getByTestId('seal-in-use').textContent).toContain('Uploaded');
    expect(within(upload).queryByRole('alert')).toBeNull();
    expect((within(upload).getByLabelText('File password') as HTMLInputElement).value).toBe('');
  });

  it('checks the timestamp server address before saving, and saves it', async () => {
    const { user } = renderApp('/admin?tab=settings');
    const form = await screen.findByRole('form', { name: 'Timestamp server' });
    const field = within(form).getByLabelText(/Timestamp server \(RFC 3161\)/);
    expect(within(form).getByText('Seals carry a trusted time (PAdES B-T) when set.')).toBeTruthy();
    await user.type(field, 'timestamp.example');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect((await within(form).findByRole('alert')).textContent).toMatch(/http\(s\) address/);
    expect(field.getAttribute('aria-invalid')).toBe('true');

    await user.clear(field);
    await user.type(field, 'http://timestamp.example.test');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Timestamp server saved')).toBeTruthy();

    // Stored: the page opened again shows it.
    renderApp('/admin?tab=settings');
    const again = await screen.findAllByRole('form', { name: 'Timestamp server' });
    await waitFor(() => expect((within(again.at(-1)!).getByLabelText(/Timestamp server/) as HTMLInputElement).value).toBe('http://timestamp.example.test'));
  });
});
