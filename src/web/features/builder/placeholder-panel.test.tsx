// @vitest-environment happy-dom
import { waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderApp, screen, signUp, withServer } from '../../test/render-app';

const server = withServer();

async function openPanel() {
  const view = renderApp('/builder');
  const form = await screen.findByRole('form', { name: 'New placeholder' });
  const panel = screen.getByTestId('placeholder-panel');
  return { ...view, form, panel };
}

describe('the builder’s placeholder panel', () => {
  beforeEach(async () => {
    await signUp(server);
  });

  it('adds a placeholder under the name it will be typed as, and says it is not used yet', async () => {
    const { user, form, panel } = await openPanel();
    expect(within(panel).getByText('No placeholders yet. Each one becomes a field on the generated form.')).toBeTruthy();
    expect(within(form).getByRole('button', { name: 'Add placeholder' }).hasAttribute('disabled')).toBe(true);

    await user.type(within(form).getByLabelText('Name'), 'Client Name');
    expect(within(form).getByText('{{client_name}}')).toBeTruthy();
    await user.click(within(form).getByRole('checkbox', { name: 'Required' }));
    await user.click(within(form).getByRole('button', { name: 'Add placeholder' }));

    // The form answers after its check, which React may draw a moment after the click.
    const item = within(await within(panel).findByRole('list', { name: 'Placeholders' })).getByTestId('placeholder-item');
    expect(within(item).getByText('{{client_name}}')).toBeTruthy();
    expect(within(item).getByText('required')).toBeTruthy();
    expect(within(item).getByText('unused')).toBeTruthy();
    expect(within(panel).getByTestId('placeholder-warnings').textContent).toContain('Not used in the format yet: {{client_name}}');
    expect(within(form).getByLabelText('Name')).toHaveProperty('value', '');
  });

  it('refuses a name already taken, and a choice without options', async () => {
    const { user, form, panel } = await openPanel();
    await user.type(within(form).getByLabelText('Name'), 'plan');
    await user.click(within(form).getByRole('button', { name: 'Add placeholder' }));
    await user.type(within(form).getByLabelText('Name'), 'Plan');
    await user.click(within(form).getByRole('button', { name: 'Add placeholder' }));
    await waitFor(() => expect(within(form).getByRole('alert').textContent).toBe('A placeholder named plan already exists.'));
    expect(within(panel).getAllByTestId('placeholder-item')).toHaveLength(1);

    await user.clear(within(form).getByLabelText('Name'));
    await user.type(within(form).getByLabelText('Name'), 'tier');
    await user.selectOptions(within(form).getByLabelText('Type'), 'Choice (drop-down)');
    await user.click(within(form).getByRole('button', { name: 'Add placeholder' }));
    await waitFor(() => expect(within(form).getByRole('alert').textContent).toBe('Add at least one option, one per line.'));

    await user.type(within(form).getByLabelText('Options, one per line'), 'Basic{Enter}Premium');
    await user.click(within(form).getByRole('button', { name: 'Add placeholder' }));
    await waitFor(() => expect(within(panel).getAllByTestId('placeholder-item')).toHaveLength(2));
    const items = within(panel).getAllByTestId('placeholder-item');
    expect(within(items[1]!).getByText('Basic · Premium')).toBeTruthy();
  });

  it('adds a signature for Signer 2, filled in when signing and never required', async () => {
    const { user, form, panel } = await openPanel();
    await user.type(within(form).getByLabelText('Name'), 'landlord_signature');
    const type = within(form).getByLabelText('Type');
    expect(within(type).getByRole('group', { name: 'Filled in when signing' })).toBeTruthy();
    await user.selectOptions(type, 'Signature');
    // A signer fills it in: there is nothing to require, and it asks which signer instead.
    expect(within(form).queryByRole('checkbox', { name: 'Required' })).toBeNull();
    await user.selectOptions(within(form).getByLabelText('Signer'), 'Signer 2');
    await user.click(within(form).getByRole('button', { name: 'Add placeholder' }));

    const item = within(await within(panel).findByRole('list', { name: 'Placeholders' })).getByTestId('placeholder-item');
    expect(within(item).getByText('{{landlord_signature}}')).toBeTruthy();
    expect(within(item).getByText('Signature')).toBeTruthy();
    expect(within(item).getByTestId('placeholder-signer').textContent).toBe('Signer 2');
    expect(within(item).queryByText('required')).toBeNull();
  });

  it('inserts a placeholder where the cursor is, and counts its use', async () => {
    const { user, form, panel } = await openPanel();
    await user.type(within(form).getByLabelText('Name'), 'amount');
    await user.click(within(form).getByRole('button', { name: 'Add placeholder' }));
    await user.click(screen.getByRole('button', { name: 'Add Paragraph' }));
    const text = screen.getByRole('textbox', { name: 'Paragraph text' });
    await user.type(text, 'You owe ');
    expect(within(panel).getByText('Paragraph 1')).toBeTruthy();

    await user.click(within(panel).getByRole('button', { name: 'Insert {{amount}}' }));
    expect((text as HTMLTextAreaElement).value).toBe('You owe {{amount}}');
    expect(within(panel).getByTestId('placeholder-uses').textContent).toBe('used 1×');
    expect(within(panel).queryByTestId('placeholder-warnings')).toBeNull();
  });

  it('deletes a placeholder, and its tags in the text then name nothing', async () => {
    const { user, form, panel } = await openPanel();
    await user.type(within(form).getByLabelText('Name'), 'city');
    await user.click(within(form).getByRole('button', { name: 'Add placeholder' }));
    await user.click(screen.getByRole('button', { name: 'Add Paragraph' }));
    await user.type(screen.getByRole('textbox', { name: 'Paragraph text' }), 'Made in {{{{city}}');

    await user.click(within(panel).getByRole('button', { name: 'Delete placeholder city' }));
    expect(await screen.findByText('{{city}} was removed. Tags using it will print empty.')).toBeTruthy();
    expect(within(panel).queryByRole('list', { name: 'Placeholders' })).toBeNull();
    expect(within(panel).getByTestId('placeholder-warnings').textContent).toContain('{{city}} matches no placeholder and will print empty.');
  });
});
