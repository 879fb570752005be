// @vitest-environment happy-dom
import { waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { findDialog, renderApp, screen, signUp, withServer } from '../../test/render-app';

const server = withServer();

beforeEach(async () => {
  await signUp(server);
});

const MOD = /^(Ctrl|Cmd)\+/;

describe('the format builder and the keyboard', () => {
  it('puts focus on the format’s name when it opens', async () => {
    renderApp('/builder');
    const name = await screen.findByRole('textbox', { name: 'Format name' });
    await waitFor(() => expect(document.activeElement).toBe(name));
  });

  it('keeps focus on Save through saving and after, and shows its key in the tooltip', async () => {
    const { user } = renderApp('/builder');
    const name = await screen.findByRole('textbox', { name: 'Format name' });
    await user.clear(name);
    await user.type(name, 'Welcome letter');
    const save = screen.getByRole('button', { name: 'Save Format' });
    expect(save.getAttribute('title')).toMatch(/^Save \((Ctrl|Cmd)\+S\)$/);
    expect(screen.getByRole('button', { name: 'Undo' }).getAttribute('title')).toMatch(/^Undo \((Ctrl|Cmd)\+Z\)$/);

    save.focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Format saved successfully!')).toBeTruthy();
    expect(screen.getByTestId('save-status').textContent).toContain('All changes saved');
    expect(screen.getByRole('link', { name: 'Fill in' })).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Save Format' }));
  });

  it('gives focus back to the menu’s button when a dialog opened from the menu closes', async () => {
    const { user } = renderApp('/builder');
    await screen.findByRole('textbox', { name: 'Format name' });
    const insert = screen.getByRole('button', { name: /Insert/ });
    await user.click(insert);
    await user.click(await screen.findByRole('menuitem', { name: /New placeholder/ }));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(insert));
  });

  it('has skip links to the editor and to Save', async () => {
    renderApp('/builder');
    await screen.findByRole('textbox', { name: 'Format name' });
    expect(screen.getByRole('link', { name: 'Skip to editor' }).getAttribute('href')).toBe('#builder-panel-canvas');
    expect(screen.getByRole('link', { name: 'Skip to Save' }).getAttribute('href')).toBe('#builder-save');
    expect(document.getElementById('builder-save')).toBe(screen.getByRole('button', { name: 'Save Format' }));
    expect(screen.getByRole('region', { name: 'Canvas' }).id).toBe('builder-panel-canvas');
    expect(screen.getByRole('region', { name: 'Format toolbar' })).toBeTruthy();
    expect(screen.getByRole('complementary', { name: 'Builder tools' })).toBeTruthy();
  });
});

describe('the keyboard shortcuts dialog', () => {
  it('opens on ? outside a field and lists the builder’s real keys', async () => {
    const { user } = renderApp('/builder');
    const name = await screen.findByRole('textbox', { name: 'Format name' });
    await waitFor(() => expect(document.activeElement).toBe(name));
    // Typed in a field, ? is text.
    await user.type(name, '?');
    expect(screen.queryByRole('dialog', { name: 'Keyboard shortcuts' })).toBeNull();

    const save = screen.getByRole('button', { name: 'Save Format' });
    save.focus();
    await user.keyboard('?');
    const dialog = await findDialog('Keyboard shortcuts');
    const keys = within(dialog)
      .getAllByText((_, el) => el?.tagName === 'KBD')
      .map((k) => k.textContent);
    expect(keys).toEqual(expect.arrayContaining(['?', '/', 'F8']));
    expect(keys.filter((k) => MOD.test(k ?? '')).map((k) => k!.replace(MOD, ''))).toEqual(['S', 'Z', 'Shift+Z', 'Y', 'B', 'I', 'U', 'K']);
    expect(within(dialog).getByText('Save the format')).toBeTruthy();
    expect(within(dialog).getByText('Open the Add element menu (outside a text field)')).toBeTruthy();

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Keyboard shortcuts' })).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(save));
  });
});
