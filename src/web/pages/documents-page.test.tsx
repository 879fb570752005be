// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { renderApp, screen, signUp, withServer } from '../test/render-app';

const server = withServer();

describe('Recent Documents', () => {
  it('shows the empty state to a new user', async () => {
    await signUp(server);
    renderApp('/documents');
    await new Promise((r) => setTimeout(r, 3000));
    console.log(document.body.textContent);
    expect(await screen.findByRole('heading', { name: 'No documents yet' })).toBeTruthy();
  });
});
