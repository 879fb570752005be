// @vitest-environment happy-dom
import { within } from '@testing-library/react';
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
  format = await createFormat('Packing list', [
    {
      name: 'items',
      label: 'Items',
      type: 'list',
      required: true,
      columns: [
        { name: 'description', label: 'Description', type: 'text', required: true },
        { name: 'qty', label: 'Quantity', type: 'number' },
      ],
    },
  ]);
});

/** The list's table and the controls beside it, found as a person reads them. */
async function openList() {
  const view = renderApp(`/data-entry/${format.id}`);
  const fieldset = await screen.findByRole('group', { name: /^Items/ });
  const table = within(fieldset).getByRole('table', { name: 'Items' });
  const rowCount = () => within(fieldset).getByText(/^\d+ rows?$/).textContent;
  const cell = (row: number, column: 'Description' | 'Quantity') => within(table).getByLabelText(`Items, row ${row}, ${column}`);
  return { ...view, fieldset, table, rowCount, cell };
}

describe('a list field on the data-entry form', () => {
  it('starts with one empty row and adds rows on Add row', async () => {
    const { user, fieldset, rowCount, cell } = await openList();
    expect(rowCount()).toBe('1 row');
    await user.click(within(fieldset).getByRole('button', { name: 'Add row' }));
    await user.click(within(fieldset).getByRole('button', { name: 'Add row' }));
    expect(rowCount()).toBe('3 rows');
    expect(cell(3, 'Description')).toHaveProperty('value', '');
  });

  it('removes the row asked for and keeps the others’ values in order', async () => {
    const { user, fieldset, rowCount, cell } = await openList();
    await user.click(within(fieldset).getByRole('button', { name: 'Add row' }));
    await user.click(within(fieldset).getByRole('button', { name: 'Add row' }));
    await user.type(cell(1, 'Description'), 'Tent');
    await user.type(cell(2, 'Description'), 'Stove');
    await user.type(cell(3, 'Description'), 'Lantern');

    await user.click(within(fieldset).getByRole('button', { name: 'Remove row 2' }));
    expect(rowCount()).toBe('2 rows');
    expect(cell(1, 'Description')).toHaveProperty('value', 'Tent');
    expect(cell(2, 'Description')).toHaveProperty('value', 'Lantern');

    await user.click(within(fieldset).getByRole('button', { name: 'Move row 2 up' }));
    expect(cell(1, 'Description')).toHaveProperty('value', 'Lantern');
    expect(cell(2, 'Description')).toHaveProperty('value', 'Tent');

    await user.click(within(fieldset).getByRole('button', { name: 'Remove row 1' }));
    await user.click(within(fieldset).getByRole('button', { name: 'Remove row 1' }));
    expect(rowCount()).toBe('0 rows');
    expect(within(fieldset).getByText('No rows yet.')).toBeTruthy();
  });

  it('marks a required cell left empty and generates once it is filled, with the rows in the document', async () => {
    const { user, fieldset, cell } = await openList();
    await user.click(within(fieldset).getByRole('button', { name: 'Add row' }));
    await user.type(cell(2, 'Quantity'), '4');
    await user.click(screen.getByRole('button', { name: 'Generate Document' }));
    expect(await screen.findByTestId('form-error')).toBeTruthy();
    expect(cell(2, 'Description').getAttribute('aria-invalid')).toBe('true');
    expect(await api.get<TDocument[]>('/api/documents')).toEqual([]);

    await user.type(cell(1, 'Description'), 'Tent');
    await user.type(cell(1, 'Quantity'), '1');
    await user.type(cell(2, 'Description'), 'Tent peg');
    await user.click(screen.getByRole('button', { name: 'Generate Document' }));
    expect(await findDialog('Document generated')).toBeTruthy();
    const [made] = await api.get<TDocument[]>('/api/documents');
    expect(made!.data['items']).toEqual([
      { description: 'Tent', qty: '1' },
      { description: 'Tent peg', qty: '4' },
    ]);
  });
});
