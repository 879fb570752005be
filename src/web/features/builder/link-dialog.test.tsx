// @vitest-environment happy-dom
import { waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderApp, screen, signUp, withServer } from '../../test/render-app';

const server = withServer();

beforeEach(async () => {
  await signUp(server);
});

async function paragraphWith(text: string) {
  const rendered = renderApp('/builder');
  await rendered.user.click(await screen.findByRole('button', { name: 'Add Paragraph' }));
  const field = screen.getByRole('textbox', { name: 'Paragraph text' }) as HTMLTextAreaElement;
  await rendered.user.type(field, text);
  return { ...rendered, field };
}

describe('links and underline on selected words', () => {
  it('makes the selected words a link with Ctrl+K, refusing an address a PDF must not open', async () => {
    const { user, field } = await paragraphWith('Read our terms today.');
    // With the space after the word, as a double-click selects it: the space stays outside the link.
    field.setSelectionRange(9, 15);
    await user.keyboard('{Control>}k{/Control}');
    const dialog = await screen.findByRole('dialog', { name: 'Add a link' });
    expect(within(dialog).getByRole('textbox', { name: 'Words to show' })).toHaveProperty('value', 'terms');
    const address = within(dialog).getByRole('textbox', { name: 'Address' });
    await waitFor(() => expect(document.activeElement).toBe(address));

    await user.type(address, 'javascript:alert(1)');
    await user.click(within(dialog).getByRole('button', { name: 'Add link' }));
    expect(await within(dialog).findByText('Use an address starting with https://, http:// or mailto:, or a {{placeholder}}.')).toBeTruthy();

    await user.clear(address);
    await user.type(address, 'https://example.com/terms (2026)');
    await user.click(within(dialog).getByRole('button', { name: 'Add link' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(field.value).toBe('Read our [terms](https://example.com/terms%20%282026%29) today.');
    await waitFor(() => expect(document.activeElement).toBe(field));

    // Inside the link, the same keys edit it.
    field.setSelectionRange(12, 12);
    await user.keyboard('{Control>}k{/Control}');
    const edit = await screen.findByRole('dialog', { name: 'Edit link' });
    expect(within(edit).getByRole('textbox', { name: 'Address' })).toHaveProperty('value', 'https://example.com/terms%20%282026%29');
    await user.clear(within(edit).getByRole('textbox', { name: 'Address' }));
    await user.type(within(edit).getByRole('textbox', { name: 'Address' }), '{{{{terms_url}}');
    await user.click(within(edit).getByRole('button', { name: 'Update link' }));
    await waitFor(() => expect(field.value).toBe('Read our [terms]({{terms_url}}) today.'));

    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.getByTitle('Link to {{terms_url}}').textContent).toBe('terms');
  });

  it('underlines the selected words with the toolbar or Ctrl+U, and the whole paragraph when nothing is selected', async () => {
    const { user, field } = await paragraphWith('Sign here please.');
    field.setSelectionRange(5, 9);
    await user.keyboard('{Control>}u{/Control}');
    expect(field.value).toBe('Sign __here__ please.');
    field.setSelectionRange(7, 11);
    await user.click(screen.getByRole('button', { name: 'Underline' }));
    expect(field.value).toBe('Sign here please.');
    expect(screen.getByRole('button', { name: 'Underline' }).getAttribute('aria-pressed')).toBe('false');
    field.setSelectionRange(0, 0);
    await user.click(screen.getByRole('button', { name: 'Underline' }));
    expect(screen.getByRole('button', { name: 'Underline' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: 'Link' }).getAttribute('aria-keyshortcuts')).toBe('Control+K Meta+K');
  });

  it('makes links in a list item and a table cell with Ctrl+K as well', async () => {
    const { user } = renderApp('/builder');
    await user.click(await screen.findByRole('button', { name: 'Add List' }));
    const item = screen.getByRole('textbox', { name: 'Item 1' }) as HTMLInputElement;
    await user.clear(item);
    await user.type(item, 'See the price list');
    item.setSelectionRange(8, 18);
    await user.keyboard('{Control>}k{/Control}');
    let dialog = await screen.findByRole('dialog', { name: 'Add a link' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Address' }), 'https://example.com/prices');
    await user.click(within(dialog).getByRole('button', { name: 'Add link' }));
    await waitFor(() => expect(item.value).toBe('See the [price list](https://example.com/prices)'));
    await user.click(screen.getByRole('button', { name: 'Done' }));

    await user.click(screen.getByRole('button', { name: 'Add Table' }));
    const cell = (await screen.findByRole('textbox', { name: /^Table \d+, row 1, column 1$/ })) as HTMLInputElement;
    await user.clear(cell);
    await user.type(cell, 'Write to us');
    cell.setSelectionRange(0, 11);
    await user.keyboard('{Control>}k{/Control}');
    dialog = await screen.findByRole('dialog', { name: 'Add a link' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Address' }), 'mailto:hello@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Add link' }));
    await waitFor(() => expect(cell.value).toBe('[Write to us](mailto:hello@example.com)'));
    await waitFor(() => expect(document.activeElement).toBe(cell));
  });
});
