// @vitest-environment happy-dom
import { within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { TFormat } from '../../../../contract/formats';
import { api } from '../../../lib/api';
import { renderApp, screen, signUp, withServer } from '../../../test/render-app';

const server = withServer();

beforeEach(async () => {
  await signUp(server);
});

const canvasList = () => screen.getByRole('list', { name: 'Format elements' });
const levelBadges = () =>
  within(canvasList())
    .queryAllByTestId('heading-level-badge')
    .map((b) => b.textContent);

describe('a heading’s level', () => {
  it('starts at level 1 as the first heading, is chosen in its properties, shows as a badge, and stays when the size changes', async () => {
    const { user } = renderApp('/builder');
    await user.click(await screen.findByRole('button', { name: 'Add Heading' }));
    const level = screen.getByRole('combobox', { name: 'Heading level' });
    const size = screen.getByRole('combobox', { name: 'Heading size' });
    expect((size as HTMLSelectElement).value).toBe('text-2xl');
    expect((level as HTMLSelectElement).value).toBe('1');
    expect(
      within(level)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Heading 1', 'Heading 2', 'Heading 3', 'Heading 4', 'Heading 5', 'Heading 6']);

    await user.selectOptions(level, 'Heading 2');
    await user.selectOptions(size, 'Small');
    expect((level as HTMLSelectElement).value).toBe('2');
    await user.click(screen.getByRole('button', { name: 'Done' }));

    expect(levelBadges()).toEqual(['Level 2: H2']);
    const badge = within(canvasList()).getByTestId('heading-level-badge');
    expect(badge.getAttribute('title')).toBe('Heading level 2');
    // Read as a level in words, with the heading's text, from the element's own button.
    expect(within(canvasList()).getByRole('button', { name: /press Enter to edit: Level 2: New heading$/ })).toBeTruthy();
  });

  it('keeps the level a heading saved without one had from its size when its size changes', async () => {
    const format = await api.post<TFormat>('/api/formats', {
      name: 'Older format',
      description: null,
      content: { elements: [{ id: 'title', type: 'heading', content: 'Welcome', fontSize: 'text-4xl' }] },
      placeholders: [],
    });
    const { user } = renderApp(`/builder/${format.id}`);
    await user.click(
      await within(await screen.findByRole('list', { name: 'Format elements' })).findByRole('button', { name: /press Enter to edit: Level 1: Welcome$/ }),
    );
    const level = screen.getByRole('combobox', { name: 'Heading level' }) as HTMLSelectElement;
    expect(level.value).toBe('1');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Heading size' }), 'Medium');
    expect(level.value).toBe('1');
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(levelBadges()).toEqual(['Level 1: H1']);
  });
});
