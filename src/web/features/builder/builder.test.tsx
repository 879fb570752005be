// @vitest-environment happy-dom
import { within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp, screen, signUp, useServer } from '../../test/render-app';

const server = useServer();

describe('the format builder: adding elements', () => {
  it('adds a heading, a paragraph with a placeholder and a table, and shows each on the canvas', async () => {
    await signUp(server);
    const { user } = renderApp('/builder');
    await user.click(await screen.findByRole('button', { name: 'Add Heading' }));
    console.log(document.body.textContent);
  });
});
