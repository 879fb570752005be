// @vitest-environment happy-dom
import { waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { TFormatContentInput } from '../../../contract/format-content';
import type { TFormat } from '../../../contract/formats';
import { api } from '../../lib/api';
import { uploadedImage } from '../../test/fixtures';
import { renderApp, screen, signUp, withServer } from '../../test/render-app';

const server = withServer();

beforeEach(async () => {
  await signUp(server);
});

async function openFormat(content: TFormatContentInput) {
  const format = await api.post<TFormat>('/api/formats', { name: 'Offer', description: null, content, placeholders: [] });
  const view = renderApp(`/builder/${format.id}`);
  const panel = await screen.findByRole('region', { name: 'Accessibility' });
  return { ...view, panel };
}

const findings = (panel: HTMLElement) => within(panel).queryAllByTestId('accessibility-finding');

describe('the accessibility check beside the preview', () => {
  it('lists what the format lacks, leads to the field that fixes each, and says when nothing is left', async () => {
    const src = await uploadedImage();
    const { user, panel } = await openFormat({
      elements: [
        { id: 'title', type: 'heading', content: 'Offer of employment', fontSize: 'text-4xl', level: 1 },
        { id: 'terms', type: 'heading', content: 'Terms', fontSize: 'text-2xl', level: 3 },
        { id: 'logo', type: 'image', src, width: 40, height: 24 },
      ],
    });
    expect(findings(panel).map((f) => [f.querySelector('p')?.textContent, within(f).getByRole('button').textContent])).toEqual([
      ['“Terms” is level 3 after a level 1 heading; use level 2.', 'Go to heading'],
      ['An image has no alternative text. Describe what it shows, or mark it decorative.', 'Go to image'],
    ]);
    expect(within(panel).getByRole('status').textContent).toBe('2 problems found');
    expect(within(panel).getByTestId('accessibility-count').textContent).toBe('2 problems found');

    // The heading opens for editing with focus on its level.
    await user.click(within(findings(panel)[0]!).getByRole('button', { name: 'Go to heading' }));
    const editing = screen.getByRole('group', { name: /^Editing Heading 2/ });
    const level = within(editing).getByRole('combobox', { name: 'Heading level' });
    await waitFor(() => expect(document.activeElement).toBe(level));
    await user.selectOptions(level, 'Heading 2');
    expect(findings(panel)).toHaveLength(1);
    expect(within(panel).getByRole('status').textContent).toBe('1 problem found');

    // The image, with focus on its alternative text; the heading closes.
    await user.click(within(panel).getByRole('button', { name: 'Go to image' }));
    expect(screen.queryByRole('group', { name: /^Editing Heading/ })).toBeNull();
    const alt = within(screen.getByRole('group', { name: /^Editing Image 3/ })).getByRole('textbox', { name: 'Alternative text' });
    await waitFor(() => expect(document.activeElement).toBe(alt));
    await user.type(alt, 'The Acme logo');

    expect(findings(panel)).toHaveLength(0);
    expect(within(panel).getByRole('status').textContent).toBe('No accessibility problems found');
    expect(within(panel).queryByRole('button', { name: 'Hide' })).toBeNull();
  });

  it('folds to its title line, and leads to colours: the document’s in the tools, a header’s dropped for the document’s', async () => {
    const { user, panel } = await openFormat({
      style: { color: '#aaaaaa' },
      header: { text: 'Acme Ltd', style: { color: '#bbbbbb' } },
      elements: [{ id: 'body', type: 'paragraph', content: 'Hello' }],
    });
    expect(findings(panel)).toHaveLength(2);
    const list = within(panel).getByRole('list', { name: 'Accessibility problems' });

    await user.click(within(panel).getByRole('button', { name: 'Hide' }));
    expect(within(panel).getByRole('button', { name: 'Show' }).getAttribute('aria-expanded')).toBe('false');
    expect(list.hidden).toBe(true);
    await user.click(within(panel).getByRole('button', { name: 'Show' }));
    expect(list.hidden).toBe(false);

    await user.click(within(panel).getByRole('button', { name: 'Go to text colour' }));
    const tools = screen.getByRole('complementary', { name: 'Builder tools' });
    await waitFor(() => expect(document.activeElement).toBe(within(tools).getByLabelText('Colour')));
    expect(within(tools).getByText('Whole document')).toBeTruthy();

    await user.click(within(panel).getByRole('button', { name: 'Use the document colour' }));
    expect(findings(panel).map((f) => f.querySelector('p')?.textContent)).toEqual([
      expect.stringMatching(/^The format’s text colour #aaaaaa has a contrast of 2\.3:1/),
    ]);
    // The fixed finding and its button are gone: focus stays in the check.
    expect(document.activeElement).toBe(within(panel).getByRole('heading', { name: 'Accessibility' }));
  });

  it('leads a table without headers to its header choices; a header column or a layout table clears it', async () => {
    const { user, panel } = await openFormat({
      elements: [
        { id: 'details', type: 'table', rows: [['Patient', '{{name}}']] },
        { id: 'address', type: 'table', rows: [['Acme Ltd', 'Invoice 42']] },
      ],
    });
    expect(findings(panel)).toHaveLength(2);
    await user.click(within(findings(panel)[0]!).getByRole('button', { name: 'Go to table' }));
    const first = screen.getByRole('group', { name: /^Editing Table 1/ });
    await user.click(within(first).getByRole('checkbox', { name: 'Header column' }));
    expect(findings(panel)).toHaveLength(1);
    await user.click(within(findings(panel)[0]!).getByRole('button', { name: 'Go to table' }));
    const second = screen.getByRole('group', { name: /^Editing Table 2/ });
    await user.click(within(second).getByRole('checkbox', { name: 'Layout only' }));
    expect(within(panel).getByRole('status').textContent).toBe('No accessibility problems found');
  });

  it('leads a link named by its address to its markup, selected, and clears when the link is given words', async () => {
    const { user, panel } = await openFormat({
      // The words in bold: the selection is found by the parser, not by searching for the words.
      elements: [{ id: 'p', type: 'paragraph', content: 'Prices: [**https://example.com/prices**](https://example.com/prices).' }],
    });
    expect(findings(panel).map((f) => f.querySelector('p')?.textContent)).toEqual([
      'The link “https://example.com/prices” shows its address: screen readers spell it out. Use words that say where it leads, such as “Our price list”.',
    ]);
    await user.click(within(findings(panel)[0]!).getByRole('button', { name: 'Go to paragraph' }));
    const text = within(screen.getByRole('group', { name: /^Editing Paragraph 1/ })).getByRole('textbox', { name: 'Paragraph text' });
    await waitFor(() => expect(document.activeElement).toBe(text));
    const field = text as HTMLTextAreaElement;
    expect(field.value.slice(field.selectionStart, field.selectionEnd)).toBe('[**https://example.com/prices**](https://example.com/prices)');
    await user.clear(field);
    await user.type(field, 'Prices: [[our price list](https://example.com/prices)');
    expect(within(panel).getByRole('status').textContent).toBe('No accessibility problems found');
  });

  it('leads text in another script to its language; setting it clears the finding, badges the element and is saved', async () => {
    const { user, panel } = await openFormat({
      locale: 'en-GB',
      elements: [
        { id: 'title', type: 'heading', content: 'Service agreement', level: 1 },
        { id: 'clause', type: 'paragraph', content: 'يسري هذا العقد من تاريخ التوقيع.' },
      ],
    });
    expect(findings(panel).map((f) => f.querySelector('p')?.textContent)).toEqual([
      '“\u2068يسري هذا العقد من تاريخ التوقيع.\u2069” is written in Arabic script, but the format’s language is British English. Set the language it is in, so that screen readers read it in the right voice.',
    ]);
    await user.click(within(findings(panel)[0]!).getByRole('button', { name: 'Go to paragraph' }));
    const editing = screen.getByRole('group', { name: /^Editing Paragraph 2/ });
    const language = within(editing).getByRole('combobox', { name: 'Paragraph language' });
    await waitFor(() => expect(document.activeElement).toBe(language));
    expect((language as HTMLSelectElement).selectedOptions[0]?.textContent).toBe('The format’s (British English)');
    await user.selectOptions(language, 'Arabic (Saudi Arabia)');
    expect(within(panel).getByRole('status').textContent).toBe('No accessibility problems found');

    await user.click(within(editing).getByRole('button', { name: 'Done' }));
    const element = screen.getAllByTestId('canvas-element').find((li) => li.dataset.elementId === 'clause')!;
    expect(within(element).getByTestId('language-badge').textContent).toBe('Language: Arabic (Saudi Arabia)');
    // The builder's own screen reader users hear the clause in Arabic too.
    expect(within(element).getByText('يسري هذا العقد من تاريخ التوقيع.').closest('[lang]')?.getAttribute('lang')).toBe('ar-SA');

    await user.keyboard('{Control>}s{/Control}');
    await waitFor(async () => {
      const saved = (await api.get<TFormat[]>('/api/formats')).find((f) => f.name === 'Offer');
      expect(saved?.content.elements.find((e) => e.id === 'clause')?.lang).toBe('ar-SA');
    });
  });
});
