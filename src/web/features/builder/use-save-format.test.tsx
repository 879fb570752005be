// @vitest-environment happy-dom
import { within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { TFormat } from '../../../contract/formats';
import { api } from '../../lib/api';
import { renderApp, screen, signUp, withServer } from '../../test/render-app';

const server = withServer();

describe('the format builder: saving', () => {
  beforeEach(async () => {
    await signUp(server);
  });

  it('refuses to save without a name and says why', async () => {
    const { user } = renderApp('/builder');
    const name = await screen.findByRole('textbox', { name: 'Format name' });
    await user.clear(name);
    await user.click(screen.getByRole('button', { name: 'Save Format' }));
    expect(await screen.findByText('Please enter a format name.')).toBeTruthy();
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(await api.get<TFormat[]>('/api/formats')).toEqual([]);
  });

  it('saves a new format to the server, moves to its address, and saves later changes to the same format', async () => {
    const { user } = renderApp('/builder');
    const name = await screen.findByRole('textbox', { name: 'Format name' });
    await user.clear(name);
    await user.type(name, 'Welcome letter');
    await user.click(screen.getByRole('button', { name: 'Add Heading' }));
    const heading = screen.getByRole('textbox', { name: 'Heading text' });
    await user.clear(heading);
    await user.type(heading, 'Welcome');
    await user.click(screen.getByRole('button', { name: 'Add Paragraph' }));
    await user.type(screen.getByRole('textbox', { name: 'Paragraph text' }), 'Hello {{{{first_name}}');
    await user.click(screen.getByRole('button', { name: /^Create \{\{first_name\}\} as/ }));
    expect(screen.getByTestId('save-status').textContent).toContain('Not saved yet');

    await user.click(screen.getByRole('button', { name: 'Save Format' }));
    expect(await screen.findByText('Format saved successfully!')).toBeTruthy();
    expect(screen.getByTestId('save-status').textContent).toContain('All changes saved');
    // Saved and unchanged, the main action is filling the form in.
    expect(screen.getByRole('link', { name: 'Fill in' })).toBeTruthy();

    const [saved, ...others] = await api.get<TFormat[]>('/api/formats');
    expect(others).toEqual([]);
    expect(saved!.name).toBe('Welcome letter');
    expect(saved!.placeholders.map((p) => p.name)).toEqual(['first_name']);
    expect(saved!.content.elements.map((e) => e.type)).toEqual(['heading', 'paragraph']);
    expect(saved!.content.elements[1]).toMatchObject({ content: 'Hello {{first_name}}' });
    expect(window.location.pathname).toBe(`/builder/${saved!.id}`);

    // A change makes it unsaved again; saving updates the same format.
    await user.click(within(screen.getByRole('region', { name: 'Canvas' })).getByRole('button', { name: /^Heading 1, press Enter to edit/ }));
    const again = screen.getByRole('textbox', { name: 'Heading text' });
    await user.type(again, ' aboard');
    expect(screen.getByTestId('save-status').textContent).toContain('Unsaved changes');
    await user.click(screen.getByRole('button', { name: 'Save Format' }));
    expect(await screen.findByRole('link', { name: 'Fill in' })).toBeTruthy();
    const after = await api.get<TFormat[]>('/api/formats');
    expect(after).toHaveLength(1);
    expect(after[0]!.id).toBe(saved!.id);
    expect(after[0]!.content.elements[0]).toMatchObject({ content: 'Welcome aboard' });
  });

  it('saves the language chosen under Page, which starts at the installation’s', async () => {
    const { user } = renderApp('/builder');
    const name = await screen.findByRole('textbox', { name: 'Format name' });
    await user.clear(name);
    await user.type(name, 'Mietvertrag');
    const language = screen.getByRole('combobox', { name: 'Language' }) as HTMLSelectElement;
    expect(language.value).toBe('en-US');
    expect(language.selectedOptions[0]!.textContent).toBe('American English');
    await user.selectOptions(language, 'German (Germany)');
    expect(screen.getByTestId('save-status').textContent).toContain('Not saved yet');
    await user.click(screen.getByRole('button', { name: 'Save Format' }));
    expect(await screen.findByText('Format saved successfully!')).toBeTruthy();
    const [saved] = await api.get<TFormat[]>('/api/formats');
    expect(saved!.content.locale).toBe('de-DE');
    expect((screen.getByRole('combobox', { name: 'Language' }) as HTMLSelectElement).value).toBe('de-DE');
  });

  it('opens a saved format from its address with its elements', async () => {
    const created = await api.post<TFormat>('/api/formats', {
      name: 'Receipt',
      description: null,
      content: {
        elements: [
          { id: 'h1', type: 'heading', content: 'Receipt for {{customer}}', fontSize: 'text-2xl', align: 'left', bold: true, italic: false, underline: false },
        ],
      },
      placeholders: [{ name: 'customer', type: 'text', required: true }],
    });
    renderApp(`/builder/${created.id}`);
    expect(await screen.findByDisplayValue('Receipt')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Canvas' })).getByTitle('Placeholder customer')).toBeTruthy();
    expect(screen.getByTestId('save-status').textContent).toContain('All changes saved');
  });
});
