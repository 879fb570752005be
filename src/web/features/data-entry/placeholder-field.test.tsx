// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import type { TDocument } from '../../../contract/documents';
import type { TFormat } from '../../../contract/formats';
import { api } from '../../lib/api';
import { createFormat, paragraphUsing } from '../../test/fixtures';
import { findDialog, renderApp, screen, signUp, withServer } from '../../test/render-app';

const server = withServer();
let format: TFormat;

beforeEach(async () => {
  await signUp(server);
  format = await createFormat(
    'Membership',
    [
      { name: 'plan', label: 'Plan', type: 'select', required: true, options: ['Basic', 'Premium'] },
      { name: 'newsletter', label: 'Send the newsletter', type: 'checkbox' },
      { name: 'gifted', label: 'Is a gift', type: 'checkbox' },
      { name: 'gift_from', label: 'Gift from', type: 'text' },
    ],
    [
      paragraphUsing(['plan', 'newsletter']),
      // Asked only while the gift paragraph would print.
      { ...paragraphUsing(['gift_from']), id: 'p2', showIf: { match: 'all', conditions: [{ field: 'gifted', op: 'equals', value: 'true' }] } },
      { ...paragraphUsing(['gifted']), id: 'p3' },
    ],
  );
});

describe('choice and checkbox fields on the data-entry form', () => {
  it('offers the choices of a drop-down, and requires one when it is required', async () => {
    const { user } = renderApp(`/data-entry/${format.id}`);
    const plan = (await screen.findByLabelText(/^Plan/)) as HTMLSelectElement;
    expect([...plan.options].map((o) => o.textContent)).toEqual(['Select an option', 'Basic', 'Premium']);
    await user.click(screen.getByRole('button', { name: 'Generate Document' }));
    expect((await screen.findByTestId('form-error')).textContent).toBe('Please fill in all required fields: Plan');

    await user.selectOptions(plan, 'Premium');
    expect(plan.value).toBe('Premium');
    expect(screen.queryByTestId('form-error')).toBeNull();
  });

  it('asks a question only while the part of the document that uses it would print', async () => {
    const { user } = renderApp(`/data-entry/${format.id}`);
    const gifted = await screen.findByRole('checkbox', { name: 'Is a gift' });
    expect(screen.queryByLabelText('Gift from')).toBeNull();
    await user.click(gifted);
    expect(await screen.findByLabelText('Gift from')).toBeTruthy();
    await user.click(gifted);
    expect(screen.queryByLabelText('Gift from')).toBeNull();
  });

  it('sends the chosen option and the ticked boxes with the document', async () => {
    const { user } = renderApp(`/data-entry/${format.id}`);
    await user.selectOptions(await screen.findByLabelText(/^Plan/), 'Basic');
    const newsletter = screen.getByRole('checkbox', { name: 'Send the newsletter' });
    expect((newsletter as HTMLInputElement).checked).toBe(false);
    await user.click(newsletter);
    expect((newsletter as HTMLInputElement).checked).toBe(true);
    await user.click(screen.getByRole('checkbox', { name: 'Is a gift' }));
    await user.type(await screen.findByLabelText('Gift from'), 'Grace');
    await user.click(screen.getByRole('button', { name: 'Generate Document' }));
    await findDialog('Document generated');
    const [made] = await api.get<TDocument[]>('/api/documents');
    expect(made!.data).toMatchObject({ plan: 'Basic', newsletter: 'true', gifted: 'true', gift_from: 'Grace' });
  });
});
