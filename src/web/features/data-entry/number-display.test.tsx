// @vitest-environment happy-dom
import { waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { TFormat } from '../../../contract/formats';
import type { TPlaceholderInput } from '../../../contract/placeholders';
import { api } from '../../lib/api';
import { paragraphUsing } from '../../test/fixtures';
import { renderApp, screen, signUp, withServer } from '../../test/render-app';

const server = withServer();

const PLACEHOLDERS: TPlaceholderInput[] = [
  { name: 'fee', label: 'Fee', type: 'number', display: 'currency' },
  { name: 'tax_rate', label: 'Tax rate', type: 'number', display: 'percent' },
  { name: 'hours', label: 'Hours', type: 'number' },
  { name: 'total', type: 'formula', expression: 'fee * (1 + tax_rate / 100)', display: 'currency' },
  {
    name: 'items',
    label: 'Items',
    type: 'list',
    columns: [
      { name: 'price', label: 'Price', type: 'number', display: 'currency' },
      { name: 'double', label: 'Double', type: 'formula', expression: 'price * 2', display: 'currency' },
    ],
  },
];

function formatIn(locale: string, currency: string): Promise<TFormat> {
  return api.post<TFormat>('/api/formats', {
    name: `Fees ${locale}`,
    description: null,
    content: { locale, currency, elements: [paragraphUsing(PLACEHOLDERS.map((p) => p.name))] },
    placeholders: PLACEHOLDERS,
  });
}

beforeEach(async () => {
  await signUp(server);
});

describe('a number’s display on the data-entry form', () => {
  it('shows the dollar before a US amount, the percent sign after a rate, and nothing on a plain number', async () => {
    const format = await formatIn('en-US', 'USD');
    const { user } = renderApp(`/data-entry/${format.id}`);
    const fee = await screen.findByLabelText('Fee');
    const adornmentOf = (name: string) => within(screen.getByTestId(`field-${name}`)).queryByTestId('number-adornment');
    expect(adornmentOf('fee')?.textContent).toBe('$');
    expect(adornmentOf('fee')?.className).toContain('left-3');
    expect(fee.getAttribute('aria-describedby')).toBe(adornmentOf('fee')?.id);
    expect(adornmentOf('tax_rate')?.textContent).toBe('%');
    expect(adornmentOf('tax_rate')?.className).toContain('right-3');
    expect(adornmentOf('hours')).toBeNull();

    await user.type(fee, '1000');
    await user.type(screen.getByLabelText('Tax rate'), '12.5');
    // The computed total prints as the document will.
    const total = within(screen.getByTestId('field-total')).getByTestId('computed-value') as HTMLInputElement;
    await waitFor(() => expect(total.value).toBe('$1,125.00'));
  });

  it('shows the euro after a German amount, in the list’s number cells too', async () => {
    const format = await formatIn('de-DE', 'EUR');
    const { user } = renderApp(`/data-entry/${format.id}`);
    await screen.findByLabelText('Fee');
    const fee = within(screen.getByTestId('field-fee')).getByTestId('number-adornment');
    expect(fee.textContent).toBe('€');
    expect(fee.className).toContain('right-3');
    const list = screen.getByTestId('field-items');
    if (!within(list).queryByTestId('number-adornment')) await user.click(within(list).getByRole('button', { name: /add row/i }));
    const cell = within(list).getAllByTestId('number-adornment')[0]!;
    expect(cell.textContent).toBe('€');
    expect(cell.className).toContain('right-2');
  });
});

describe('the builder’s Display select', () => {
  it('guesses money from the name, offers decimal places, and saves them with the placeholder', async () => {
    const { user } = renderApp('/builder');
    const form = await screen.findByRole('form', { name: 'New placeholder' });
    await user.type(within(form).getByLabelText('Name'), 'unit price');
    expect(within(form).queryByLabelText('Display')).toBeNull();
    await user.selectOptions(within(form).getByLabelText('Type'), 'number');
    const display = within(form).getByLabelText('Display') as HTMLSelectElement;
    expect(display.value).toBe('currency');
    expect([...display.options].map((o) => o.textContent)).toEqual(['Plain', 'Decimal', 'Currency', 'Percent']);
    expect((within(form).getByLabelText(/Decimal places/) as HTMLInputElement).placeholder).toBe('auto');

    await user.selectOptions(display, 'decimal');
    const places = within(form).getByLabelText(/Decimal places/) as HTMLInputElement;
    expect(places.placeholder).toBe('2');
    await user.type(places, '3x');
    expect(places.value).toBe('3');
    await user.selectOptions(display, 'Plain');
    expect(within(form).queryByLabelText(/Decimal places/)).toBeNull();
    await user.selectOptions(display, 'decimal');
    await user.click(within(form).getByRole('button', { name: 'Add placeholder' }));

    await user.click(await screen.findByRole('button', { name: 'Edit placeholder unit_price' }));
    const dialog = await screen.findByRole('dialog');
    expect((within(dialog).getByLabelText('Display') as HTMLSelectElement).value).toBe('decimal');
    expect((within(dialog).getByLabelText(/Decimal places/) as HTMLInputElement).value).toBe('3');
  });

  it('gives a list’s price and amount columns a currency display', async () => {
    const { user } = renderApp('/builder');
    const form = await screen.findByRole('form', { name: 'New placeholder' });
    await user.type(within(form).getByLabelText('Name'), 'lines');
    await user.selectOptions(within(form).getByLabelText('Type'), 'list');
    const displays = within(form)
      .getAllByRole('combobox')
      .filter((el) => /Column \d+ display/.test(el.getAttribute('aria-label') ?? '')) as HTMLSelectElement[];
    // qty, price and amount: the numbers and the formula.
    expect(displays.map((d) => d.value)).toEqual(['', 'currency', 'currency']);
    await user.selectOptions(within(form).getByLabelText('Column 4 display'), 'percent');
    expect(within(form).getByLabelText('Column 4 decimal places')).toBeTruthy();
    await user.selectOptions(within(form).getByLabelText('Column 1 type'), 'number');
    expect((within(form).getByLabelText('Column 1 display') as HTMLSelectElement).value).toBe('');
  });
});
