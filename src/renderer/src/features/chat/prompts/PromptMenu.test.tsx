import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Prompt } from '../../../../../shared/api';
import { installFakeApi } from '../../../test/fakeApi';
import { renderScreen } from '../../../test/render';
import { useActiveRunStore } from '../activeRun';
import { Composer } from '../Composer';

const prompt = (id: number, scope: Prompt['scope'], name: string, text: string, variables: string[] = []): Prompt => ({
  id,
  scope,
  name,
  text,
  variables,
  created_at: '2026-11-01T00:00:00Z',
  updated_at: '2026-11-01T00:00:00Z',
});

const PROMPTS = [
  prompt(1, 'tenant', 'Weekly report', 'Summarise {{topic}} for {{audience}}.', ['topic', 'audience']),
  prompt(2, 'personal', 'Translate', 'Translate the following into plain English:'),
];

function renderComposer({ visitor = false } = {}) {
  const api = installFakeApi({ 'GET /prompts/': () => Response.json({ items: PROMPTS }) });
  const onSend = vi.fn();
  renderScreen(<Composer onSend={onSend} onStop={() => undefined} streaming={false} conversationKey="1/" visitor={visitor} />);
  return { api, onSend, box: screen.getByRole(visitor ? 'textbox' : 'combobox', { name: 'Message' }) as HTMLTextAreaElement };
}

const options = () => within(screen.getByRole('listbox', { name: 'Prompts' })).getAllByRole('option');

describe('the / prompt menu of the message box', () => {
  afterEach(() => useActiveRunStore.setState({ draft: '', run: null }));

  it('opens on / with the tenant’s and the member’s prompts, filters as one types, and inserts the chosen one by keyboard without sending', async () => {
    const { box, onSend } = renderComposer();
    expect(box).toHaveAttribute('aria-expanded', 'false');
    await userEvent.type(box, 'Please: /');
    await waitFor(() => expect(box).toHaveAttribute('aria-expanded', 'true'));
    expect(box).toHaveAttribute('aria-controls', screen.getByRole('listbox').id);
    expect(options().map((option) => option.textContent)).toEqual([expect.stringContaining('Weekly report'), expect.stringContaining('Translate')]);
    expect(options()[0]).toHaveTextContent('Workspace');
    expect(options()[1]).toHaveTextContent('Mine');
    // The first option is active; arrows move (and wrap), the box keeps the focus.
    expect(box).toHaveAttribute('aria-activedescendant', options()[0]!.id);
    await userEvent.keyboard('{ArrowDown}');
    expect(options()[1]).toHaveAttribute('aria-selected', 'true');
    await userEvent.keyboard('{ArrowDown}');
    expect(box).toHaveAttribute('aria-activedescendant', options()[0]!.id);
    await userEvent.keyboard('{ArrowUp}');
    expect(box).toHaveAttribute('aria-activedescendant', options()[1]!.id);

    await userEvent.type(box, 'TRANS');
    expect(options()).toHaveLength(1);
    await userEvent.keyboard('{Enter}');
    expect(box.value).toBe('Please: Translate the following into plain English:');
    expect(onSend).not.toHaveBeenCalled();
    expect(box).toHaveAttribute('aria-expanded', 'false');
    expect(box).toHaveFocus();
    await userEvent.type(box, ' Hallo{Enter}');
    expect(onSend).toHaveBeenCalledExactlyOnceWith('Please: Translate the following into plain English: Hallo');
  });

  it('stays closed for a / inside a word and when nothing matches; Escape closes it and Enter then sends the text as typed', async () => {
    const { box, onSend } = renderComposer();
    await userEvent.type(box, '/');
    await waitFor(() => expect(box).toHaveAttribute('aria-expanded', 'true'));
    await userEvent.type(box, '{Backspace}and/');
    expect(box).toHaveAttribute('aria-expanded', 'false');
    await userEvent.type(box, 'or /');
    expect(box).toHaveAttribute('aria-expanded', 'true');
    await userEvent.type(box, 'zzz');
    expect(box).toHaveAttribute('aria-expanded', 'false');
    await userEvent.type(box, '{Backspace}{Backspace}{Backspace}');
    expect(box).toHaveAttribute('aria-expanded', 'true');
    await userEvent.keyboard('{Escape}');
    expect(box).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    await userEvent.keyboard('{Enter}');
    expect(onSend).toHaveBeenCalledExactlyOnceWith('and/or /');
  });

  it('asks for each variable before inserting: every value required, Enter inserts them where the prompt has them', async () => {
    const { box, onSend } = renderComposer();
    await userEvent.type(box, '/week');
    await waitFor(() => expect(options()).toHaveLength(1));
    await userEvent.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Fill in “Weekly report”' });
    const topic = within(dialog).getByRole('textbox', { name: 'topic' });
    await waitFor(() => expect(topic).toHaveFocus());
    await userEvent.keyboard('{Enter}');
    expect(within(dialog).getAllByText('Fill in this value.')).toHaveLength(2);
    await userEvent.type(topic, 'sales');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'audience' }), 'the board{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(box.value).toBe('Summarise sales for the board.');
    expect(onSend).not.toHaveBeenCalled();
    await waitFor(() => expect(box).toHaveFocus());
  });

  it('Escape in the variable form leaves the box as it was', async () => {
    const { box } = renderComposer();
    await userEvent.type(box, '/week');
    await waitFor(() => expect(options()).toHaveLength(1));
    await userEvent.keyboard('{Enter}');
    await screen.findByRole('dialog');
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(box.value).toBe('/week');
    await waitFor(() => expect(box).toHaveFocus());
  });

  it('offers nothing to a signed-out visitor, whose box asks no member endpoint', async () => {
    const { box, api } = renderComposer({ visitor: true });
    await userEvent.type(box, '/');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(api.find('GET', '/prompts/')).toEqual([]);
  });
});
