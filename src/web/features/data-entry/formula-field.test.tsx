// @vitest-environment happy-dom
import { waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { TDocument } from '../../../contract/documents';
import type { TFormat } from '../../../contract/formats';
import { api } from '../../lib/api';
import { createFormat } from '../../test/fixtures';
import { findDialog, renderApp, screen, signUp, withServer } from '../../test/render-app';

const server = withServer();
let format: TFormat;

beforeEach(async () => {
  await signUp(server);
  format = await createFormat('Quote', [
    { name: 'hours', label: 'Hours', type: 'number', required: true },
    { name: 'rate', label: 'Hourly rate', type: 'number', required: true },
    { name: 'labour', label: 'Labour', type: 'formula', expression: 'hours * rate' },
    {
      name: 'parts',
      label: 'Parts',
      type: 'list',
      columns: [
        { name: 'qty', label: 'Qty', type: 'number' },
        { name: 'price', label: 'Price', type: 'number' },
        { name: 'amount', label: 'Amount', type: 'formula', expression: 'qty * price' },
      ],
    },
    { name: 'total', label: 'Total', type: 'formula', expression: 'labour + sum(parts.amount)' },
  ]);
});

const computed = (name: string) => screen.getByLabelText(new RegExp(`^${name}`)) as HTMLInputElement;

describe('formula fields on the data-entry form', () => {
  it('are read-only, say what they compute, and are not counted as fields', async () => {
    renderApp(`/data-entry/${format.id}`);
    await screen.findByRole('form', { name: 'Generate document' });
    const labour = computed('Labour');
    expect(labour.readOnly).toBe(true);
    // Empty numbers count as nothing yet.
    expect(labour.value).toBe('0');
    expect(screen.getByText('= hours * rate')).toBeTruthy();
    // Formulas are computed, not asked: 3 of the 5 placeholders are fields.
    expect(screen.getByText(/^3 fields, 2 required/)).toBeTruthy();
  });

  it('update as the person types, in a list row and in the totals', async () => {
    const { user } = renderApp(`/data-entry/${format.id}`);
    await screen.findByRole('form', { name: 'Generate document' });
    await user.type(screen.getByLabelText(/^Hours/), '3');
    await user.type(screen.getByLabelText(/^Hourly rate/), '40');
    await waitFor(() => expect(computed('Labour').value).toBe('120'));

    const parts = screen.getByRole('table', { name: 'Parts' });
    await user.type(within(parts).getByLabelText('Parts, row 1, Qty'), '2');
    await user.type(within(parts).getByLabelText('Parts, row 1, Price'), '7.5');
    await waitFor(() => expect(within(parts).getByLabelText('Parts, row 1, Amount').textContent).toBe('15'));
    await waitFor(() => expect(computed('Total').value).toBe('135'));

    // A change to an input changes everything computed from it.
    await user.clear(screen.getByLabelText(/^Hours/));
    await user.type(screen.getByLabelText(/^Hours/), '1');
    await waitFor(() => expect(computed('Total').value).toBe('55'));
    expect(computed('Labour').value).toBe('40');
  });

  it('are sent with the document as computed', async () => {
    const { user } = renderApp(`/data-entry/${format.id}`);
    await screen.findByRole('form', { name: 'Generate document' });
    await user.type(screen.getByLabelText(/^Hours/), '2');
    await user.type(screen.getByLabelText(/^Hourly rate/), '50');
    await user.click(screen.getByRole('button', { name: 'Generate Document' }));
    await findDialog('Document generated');
    const [made] = await api.get<TDocument[]>('/api/documents');
    expect(made!.data).toMatchObject({ hours: '2', rate: '50', labour: '100', total: '100' });
  });
});
