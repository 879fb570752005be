// @vitest-environment happy-dom
import { waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { TFormat } from '../../../../contract/formats';
import { api } from '../../../lib/api';
import { uploadedImage } from '../../../test/fixtures';
import { renderApp, screen, signUp, withServer } from '../../../test/render-app';

const server = withServer();

beforeEach(async () => {
  await signUp(server);
});

const altField = () => screen.getByRole('textbox', { name: 'Alternative text' }) as HTMLTextAreaElement;
const warning = () => screen.queryByTestId('image-alt-missing');

describe('an image’s alternative text', () => {
  it('asks for nothing while the image has no source', async () => {
    const { user } = renderApp('/builder');
    await user.click(await screen.findByRole('button', { name: 'Add Image' }));
    expect(altField().value).toBe('');
    expect(altField().disabled).toBe(false);
    expect(screen.getByRole('switch', { name: 'Decorative (screen readers skip it)' }).getAttribute('aria-checked')).toBe('false');
    expect(warning()).toBeNull();
  });

  it('warns under the field while a shown image has neither text nor Decorative, and saves what is chosen', async () => {
    const src = await uploadedImage();
    const format = await api.post<TFormat>('/api/formats', {
      name: 'Letterhead',
      description: null,
      content: { elements: [{ id: 'logo', type: 'image', src, width: 40, height: 24 }] },
      placeholders: [],
    });
    const { user } = renderApp(`/builder/${format.id}`);
    const canvas = await screen.findByRole('list', { name: 'Format elements' });
    await user.click(within(canvas).getByRole('button', { name: /^Image 1, press Enter to edit/ }));

    expect(warning()?.textContent).toBe('No alternative text yet: describe what the image shows, or mark it decorative if it adds nothing a reader needs.');
    expect(altField().getAttribute('aria-describedby')).toContain(warning()!.id);
    expect(altField().getAttribute('aria-describedby')).toMatch(/-hint\b/);

    // Spaces alone say nothing.
    await user.type(altField(), '   ');
    expect(warning()).toBeTruthy();
    await user.type(altField(), 'The Acme logo for {{{{client}}');
    expect(altField().value).toBe('The Acme logo for {{client}}');
    expect(warning()).toBeNull();

    await user.clear(altField());
    expect(warning()).toBeTruthy();
    const decorative = screen.getByRole('switch', { name: 'Decorative (screen readers skip it)' });
    await user.click(decorative);
    expect(decorative.getAttribute('aria-checked')).toBe('true');
    expect(altField().disabled).toBe(true);
    expect(warning()).toBeNull();
    expect(screen.getByText('Screen readers skip a decorative image, so it needs no description.')).toBeTruthy();

    // Decorative off again: the text can be written, and is saved with the image.
    await user.click(decorative);
    await user.type(altField(), 'Acme logo');
    await user.click(screen.getByRole('button', { name: 'Save Format' }));
    expect(await screen.findByText('Format saved successfully!')).toBeTruthy();
    const saved = await api.get<TFormat>(`/api/formats/${format.id}`);
    expect(saved.content.elements[0]).toMatchObject({ type: 'image', src, alt: 'Acme logo' });
    expect(saved.content.elements[0]).not.toHaveProperty('decorative');
  });
});

describe('an image file the builder refuses', () => {
  it('can be chosen again, and is refused again with the reason', async () => {
    const { user } = renderApp('/builder');
    await user.click(await screen.findByRole('button', { name: 'Add Image' }));
    // The picker is the browser's own dialog behind Upload image: its input is what a file lands in.
    const picker = document.querySelector<HTMLInputElement>('input[type="file"]')!;
    const tooLarge = new File([new Uint8Array(10 * 1024 * 1024 + 1)], 'scan.png', { type: 'image/png' });

    await user.upload(picker, tooLarge);
    expect(await screen.findByText('Image too large')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Dismiss notification' }));
    await waitFor(() => expect(screen.queryByText('Image too large')).toBeNull());

    // The same file chosen again, as someone would to see the message once more.
    await user.upload(picker, tooLarge);
    expect(await screen.findByText('Image too large')).toBeTruthy();
  });
});
