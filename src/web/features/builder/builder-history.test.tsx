// @vitest-environment happy-dom
import { within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderApp, screen, signUp, withServer } from '../../test/render-app';

const server = withServer();

const canvas = () => screen.getByRole('region', { name: 'Canvas' });

describe('the format builder: undo and redo', () => {
  beforeEach(async () => {
    await signUp(server);
  });

  it('starts with nothing to undo or redo', async () => {
    renderApp('/builder');
    expect((await screen.findByRole('button', { name: 'Undo' })).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('button', { name: 'Redo' }).hasAttribute('disabled')).toBe(true);
  });

  it('takes back an added element and brings it back again', async () => {
    const { user } = renderApp('/builder');
    await user.click(await screen.findByRole('button', { name: 'Add Heading' }));
    await user.click(screen.getByRole('button', { name: 'Done' }));
    await user.click(screen.getByRole('button', { name: 'Add Paragraph' }));
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(within(canvas()).getByText('2 elements')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(within(canvas()).getByText('1 element')).toBeTruthy();
    expect(within(canvas()).getByText('New heading')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(within(canvas()).getByText('No elements')).toBeTruthy();
    expect(within(canvas()).getByText('Start building your format')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Undo' }).hasAttribute('disabled')).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Redo' }));
    await user.click(screen.getByRole('button', { name: 'Redo' }));
    expect(within(canvas()).getByText('2 elements')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Redo' }).hasAttribute('disabled')).toBe(true);
  });

  it('undoes an edit to a heading’s text, with the keyboard as well as the button', async () => {
    const { user } = renderApp('/builder');
    await user.click(await screen.findByRole('button', { name: 'Add Heading' }));
    const text = screen.getByRole('textbox', { name: 'Heading text' });
    await user.clear(text);
    await user.type(text, 'Invoice');
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(within(canvas()).getByText('Invoice')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(within(canvas()).queryByText('Invoice')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Redo' }));
    expect(within(canvas()).getByText('Invoice')).toBeTruthy();

    // Deleting is undone with Ctrl+Z from anywhere outside a text field.
    await user.click(within(canvas()).getByRole('button', { name: /^Delete Heading/ }));
    expect(within(canvas()).getByText('No elements')).toBeTruthy();
    await user.click(document.body);
    await user.keyboard('{Control>}z{/Control}');
    expect(within(canvas()).getByText('Invoice')).toBeTruthy();
  });
});
