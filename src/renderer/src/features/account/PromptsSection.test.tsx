import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Prompt } from '../../../../shared/api';
import { installFakeApi } from '../../test/fakeApi';
import { renderScreen } from '../../test/render';
import { PromptsSection } from './PromptsSection';

const tenantPrompt: Prompt = {
  id: 1,
  scope: 'tenant',
  name: 'Weekly report',
  text: 'Summarise {{topic}}',
  variables: ['topic'],
  created_at: '2026-11-01T00:00:00Z',
  updated_at: '2026-11-01T00:00:00Z',
};

describe('My prompts on My page', () => {
  it('lists only the member’s own prompts, and checks a new one with the contract’s rules before the server’s', async () => {
    const items: Prompt[] = [tenantPrompt];
    const api = installFakeApi({
      'GET /prompts/': () => Response.json({ items }),
      'POST /prompts/': async (request) => {
        const body = (await request.json()) as { name: string; text: string };
        if (body.name === 'Taken') return Response.json({ code: 'prompt_name_taken', message: 'x', details: { field: 'name' } }, { status: 409 });
        const created: Prompt = { ...tenantPrompt, id: 2, scope: 'personal', name: body.name, text: body.text, variables: ['tone'] };
        items.push(created);
        return Response.json(created);
      },
    });
    renderScreen(<PromptsSection />);
    expect(await screen.findByTestId('my-prompts-empty')).toHaveTextContent('You have no prompts yet.');

    await userEvent.click(screen.getByRole('button', { name: 'New prompt' }));
    const dialog = await screen.findByRole('dialog', { name: 'New prompt' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'Taken');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Text/ }), 'Write in a {{{{two words}}');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add prompt' }));
    expect(await within(dialog).findByText(/Write a variable as \{\{topic\}\}/)).toBeInTheDocument();
    expect(api.find('POST', '/prompts/')).toEqual([]);

    const text = within(dialog).getByRole('textbox', { name: /Text/ });
    await userEvent.clear(text);
    await userEvent.type(text, 'Write in a {{{{tone}} voice');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add prompt' }));
    expect(await within(dialog).findByText('Another prompt already has this name.')).toBeInTheDocument();

    const name = within(dialog).getByRole('textbox', { name: /Name/ });
    await userEvent.clear(name);
    await userEvent.type(name, 'Voice');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add prompt' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const list = await screen.findByRole('list', { name: 'My prompts' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    expect(list).toHaveTextContent('Voice');
    expect(list).not.toHaveTextContent('Weekly report');
  });
});
