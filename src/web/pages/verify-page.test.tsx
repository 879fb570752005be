// @vitest-environment happy-dom
import { waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { completedRequest, renderedOfferLetter } from '../test/signing';
import { renderApp, screen, withServer } from '../test/render-app';

const server = withServer();

const pdfFile = (bytes: Uint8Array, name: string) => new File([bytes.slice()], name, { type: 'application/pdf' });

describe('Verify a signed PDF', () => {
  it('checks an uploaded PDF sealed here, without an account, and shows who signed it', async () => {
    const { sealed, document: signed } = await completedRequest(server.t);
    const { user } = renderApp('/verify');
    expect(await screen.findByRole('heading', { level: 1, name: 'Verify a signed PDF' })).toBeTruthy();
    // The title is set by an effect, which may run a moment after the heading is drawn.
    await waitFor(() => expect(document.title).toBe('Verify a signed PDF · Formwork'));
    expect(screen.getByRole('button', { name: 'Choose a PDF' })).toBeTruthy();

    await user.upload(screen.getByLabelText('Signed PDF to check'), pdfFile(sealed, 'offer-signed.pdf'));
    const title = await screen.findByRole('heading', { level: 2, name: 'Sealed by 127.0.0.1 and unchanged' });
    // Taken to the answer, so a keyboard or screen-reader user hears it first.
    expect(document.activeElement).toBe(title);
    const card = screen.getByTestId('verify-result');
    expect(within(card).getByText(signed.name)).toBeTruthy();
    expect(within(card).getByText('Ada Lovelace')).toBeTruthy();
    expect(within(card).getByText('charles@example.test')).toBeTruthy();
    expect(within(card).getAllByText(/^Signed Nov 25, 2026/)).toHaveLength(2);
    expect(within(card).getByText(/Intact: every event is as it was recorded/)).toBeTruthy();
  });

  it('says why a PDF is not verified, and a file that is not a PDF gets the server’s words', async () => {
    const { user } = renderApp('/verify');
    await user.upload(await screen.findByLabelText('Signed PDF to check'), pdfFile(renderedOfferLetter(), 'unsigned.pdf'));
    await screen.findByRole('heading', { level: 2, name: 'Not verified' });
    expect(within(screen.getByTestId('verify-result')).getByText('The PDF carries no seal.')).toBeTruthy();

    await user.upload(screen.getByLabelText('Signed PDF to check'), new File(['just text'], 'notes.pdf', { type: 'application/pdf' }));
    expect((await screen.findByRole('alert')).textContent).toContain('This file is not a PDF. Choose the signed PDF.');
    expect(screen.queryByTestId('verify-result')).toBeNull();
  });
});
