// @vitest-environment happy-dom
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { STARTER_FORMATS, type TStarterFormat } from '../../../contract/starter-formats';
import { StarterGallery } from './starter-gallery';

describe('the starter gallery', () => {
  it('shows every starter with its fields, and hands over the chosen one parsed as a save would store it', async () => {
    const chosen: TStarterFormat[] = [];
    render(<StarterGallery onChoose={(starter) => chosen.push(starter)} />);
    const cards = within(screen.getByRole('list', { name: 'Starter templates' })).getAllByRole('button');
    expect(cards.map((card) => card.querySelector('.font-semibold')?.textContent)).toEqual(STARTER_FORMATS.map((s) => s.name));
    const invoice = STARTER_FORMATS.find((s) => s.id === 'invoice')!;
    expect(screen.getByTestId('starter-invoice').textContent).toContain(`${invoice.placeholders.length} fields: `);

    await userEvent.click(screen.getByTestId('starter-invoice'));
    await expect.poll(() => chosen.length).toBe(1);
    expect(chosen[0]).toEqual(invoice);
  });
});
