// @vitest-environment happy-dom
import { within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderApp, screen, signUp, withServer } from '../../test/render-app';

const server = withServer();

/** The canvas's list of elements, as a reader finds it. */
const canvasList = () => screen.getByRole('list', { name: 'Format elements' });

describe('the format builder: adding elements', () => {
  beforeEach(async () => {
    await signUp(server);
  });

  it('adds a heading, opens it for editing, and shows the typed text on the canvas', async () => {
    const { user } = renderApp('/builder');
    await user.click(await screen.findByRole('button', { name: 'Add Heading' }));
    const text = screen.getByRole('textbox', { name: 'Heading text' });
    expect(text).toHaveProperty('value', 'New heading');
    await user.clear(text);
    await user.type(text, 'Offer of employment');
    await user.click(screen.getByRole('button', { name: 'Done' }));

    expect(screen.queryByRole('textbox', { name: 'Heading text' })).toBeNull();
    expect(within(canvasList()).getByText('Offer of employment')).toBeTruthy();
    expect(screen.getByText('1 element')).toBeTruthy();
  });

  it('adds a paragraph with a placeholder tag and offers to create the placeholder it names', async () => {
    const { user } = renderApp('/builder');
    await user.click(await screen.findByRole('button', { name: 'Add Paragraph' }));
    // `{{` is how user-event types one literal brace.
    await user.type(screen.getByRole('textbox', { name: 'Paragraph text' }), 'Dear {{{{client_name}}, welcome aboard.');

    const offer = screen.getByRole('region', { name: 'New placeholders in your text' });
    expect(within(offer).getByText('Your text uses a placeholder that does not exist yet.')).toBeTruthy();
    await user.click(within(offer).getByRole('button', { name: /^Create \{\{client_name\}\} as/ }));

    expect(screen.queryByRole('region', { name: 'New placeholders in your text' })).toBeNull();
    const panel = screen.getByTestId('placeholder-panel');
    expect(within(panel).getByText('1 defined')).toBeTruthy();
    expect(within(panel).getByText(/client_name/)).toBeTruthy();
    // The tag on the canvas now names a known placeholder.
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(within(canvasList()).getByTitle('Placeholder client_name')).toBeTruthy();
  });

  it('adds a table, grows it by a row and a column, and fills a cell', async () => {
    const { user } = renderApp('/builder');
    await user.click(await screen.findByRole('button', { name: 'Add Table' }));
    const editing = screen.getByRole('group', { name: /^Editing Table/ });
    const size = () => within(editing).getByText(/^\d+ × \d+$/).textContent;
    const before = size();
    const [rows, cols] = before!.split(' × ').map(Number) as [number, number];

    await user.click(within(editing).getByRole('button', { name: 'Add row' }));
    await user.click(within(editing).getByRole('button', { name: 'Add column' }));
    expect(size()).toBe(`${rows + 1} × ${cols + 1}`);

    const cell = within(editing).getByRole('textbox', { name: `Table 1, row ${rows + 1}, column ${cols + 1}` });
    await user.type(cell, 'Total');
    await user.click(within(editing).getByRole('button', { name: `Delete row 1` }));
    expect(size()).toBe(`${rows} × ${cols + 1}`);
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(within(canvasList()).getByText('Total')).toBeTruthy();
  });
});
