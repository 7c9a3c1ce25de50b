import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatMeta } from '../../../../shared/api';
import { setPlatformForTests } from '../../platform';
import { useUserSession } from '../../stores/userSession';
import { installFakeApi, page } from '../../test/fakeApi';
import { chatStream, testModel } from '../../test/fixtures';
import { renderScreen } from '../../test/render';
import { useActiveRunStore } from '../chat/activeRun';
import StudioEditorPage from './StudioEditorPage';
import { chatbotFixture } from './studioFixtures';

beforeEach(() => useUserSession.setState({ member: { id: 3, is_admin: false } as never }));
afterEach(() => {
  useUserSession.setState({ member: null });
  useActiveRunStore.setState({ run: null, draft: '' });
  setPlatformForTests(null);
});

const groups = page([
  { id: 4, ko_name: '기본 그룹', en_name: 'Default group', is_default: true },
  { id: 5, ko_name: '연구팀', en_name: 'Research', is_default: false },
]);

/** The server's copy of the chatbot, changed by the fake PATCH routes. */
let current = chatbotFixture();

function routes(extra: Record<string, (request: Request) => Response | Promise<Response>> = {}) {
  current = chatbotFixture();
  return {
    'GET /chatbots/7/': () => Response.json(current),
    'GET /categories/': () => Response.json({ items: [{ id: 2, en_name: 'Writing', ko_name: '글쓰기' }] }),
    'GET /llm-models/': () => Response.json({ items: [testModel(), testModel({ id: 9, display_name: 'Big Model', context_limit: 1_000_000 })] }),
    'GET /member-groups/': () => Response.json(groups),
    'GET /chatbots/': () => Response.json(page([])),
    'GET /task-modes/': () => Response.json([]),
    'GET /tools/': () => Response.json({ items: [] }),
    'POST /log-error/': () => Response.json({ ok: true }),
    'PATCH /chatbots/7/': async (request: Request) => {
      const body = (await request.json()) as Record<string, unknown>;
      current = { ...current, ...body };
      return Response.json(current);
    },
    ...extra,
  };
}

const renderEditor = () => renderScreen(<StudioEditorPage />, { route: '/dashboard/studio/7', path: '/dashboard/studio/:chatbotId' });

describe('Studio editor', () => {
  it('saves only the changed fields, and says the test chat uses saved settings once saved', async () => {
    const api = installFakeApi(routes());
    const user = userEvent.setup();
    renderEditor();
    const name = await screen.findByRole('textbox', { name: 'Name (English)' });
    expect(screen.getByText(/128,000 tokens context/, { selector: '[data-testid="model-picker-details"]' })).toBeInTheDocument();
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    await user.clear(name);
    await user.type(name, 'Travel helper');
    expect(screen.getByTestId('test-chat-note')).toHaveTextContent('unsaved changes');
    await user.click(save);
    expect(await screen.findByText('Chatbot saved.')).toBeInTheDocument();
    const [patch] = api.find('PATCH', '/chatbots/7/');
    expect(await patch!.json()).toEqual({ en_name: 'Travel helper' });
    await waitFor(() => expect(save).toBeDisabled());
    expect(screen.getByTestId('test-chat-note')).toHaveTextContent('Uses the saved settings');
    expect(screen.getByRole('heading', { level: 1, name: 'Travel helper' })).toBeInTheDocument();
  });

  it('saves unsaved edits before a test message, sends it with is_test, and shows the streamed answer with its citation', async () => {
    const meta: ChatMeta = { session_hash_id: 't1', session_created: true, member_message_id: 11, chatbot_message_id: 12, model: 'demo' };
    const api = installFakeApi(
      routes({
        'POST /chatbots/7/chat/': () =>
          chatStream(meta, [
            { type: 'citation', citation: { kind: 'document', file_id: 3, name: 'guide.pdf', snippet: 'Opening hours are 9 to 5.' } },
            { type: 'text', delta: 'We open at 9 [1].' },
            { type: 'end', finish_reason: 'stop' },
          ]),
      }),
    );
    const user = userEvent.setup();
    renderEditor();
    await user.type(await screen.findByRole('textbox', { name: 'System instructions' }), ' Cite the guide.');
    const panel = screen.getByTestId('test-chat');
    await user.type(within(panel).getByTestId('composer-input'), 'When do you open?{Enter}');
    expect(await within(panel).findByText('We open at 9 [1].', {}, { timeout: 4000 })).toBeInTheDocument();
    expect(within(panel).getByTestId('citations')).toHaveTextContent('guide.pdf');
    const [patch] = api.find('PATCH', '/chatbots/7/');
    expect(await patch!.json()).toEqual({ system_instructions: 'Be brief. Cite the guide.' });
    const [sent] = api.find('POST', '/chatbots/7/chat/');
    expect(await sent!.json()).toMatchObject({ text: 'When do you open?', is_test: true });
    expect(api.requests.indexOf(patch!)).toBeLessThan(api.requests.indexOf(sent!));
  });

  it('asks before leaving with unsaved changes, and stays on Stay', async () => {
    installFakeApi(routes());
    const user = userEvent.setup();
    const { router } = renderEditor();
    await user.type(await screen.findByRole('textbox', { name: 'Name (Korean)' }), '여행');
    await user.click(screen.getByRole('link', { name: 'Back to my chatbots' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    await user.click(within(dialog).getByRole('button', { name: 'Stay' }));
    expect(router.state.location.pathname).toBe('/dashboard/studio/7');
    await user.click(screen.getByRole('link', { name: 'Back to my chatbots' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Leave without saving?' })).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/studio'));
  });

  it('shares with groups, checks a custom link, and asks to publish', async () => {
    const api = installFakeApi(
      routes({
        'PATCH /chatbots/7/access/': async (request) => {
          const body = (await request.json()) as { is_public: boolean; member_group_ids: number[]; category_id?: number };
          current = chatbotFixture(
            body.is_public
              ? { waiting_publish: true, publish_status: 'pending', status: 'pending', categories: current.categories }
              : { member_group_ids: body.member_group_ids, status: 'shared', categories: [{ id: 2, en_name: 'Writing', ko_name: '글쓰기' }] },
          );
          return Response.json(current);
        },
        'POST /chatbots/7/check-public-hash/': async (request) =>
          Response.json({ is_available: ((await request.json()) as { public_hash_id: string }).public_hash_id !== 'taken-link' }),
      }),
    );
    const user = userEvent.setup();
    renderEditor();
    await user.click(await screen.findByRole('button', { name: 'Access' }));
    let dialog = await screen.findByRole('dialog', { name: 'Who can use this chatbot' });
    await user.click(within(dialog).getByRole('radio', { name: /Member groups/ }));
    const submit = within(dialog).getByRole('button', { name: 'Save' });
    expect(submit).toBeDisabled();
    // A select's label names its open list too: the input is the first.
    await user.click(within(dialog).getAllByLabelText('Groups')[0]!);
    await user.click(await screen.findByRole('option', { name: 'Research' }));
    await user.click(within(dialog).getAllByLabelText('Store category')[0]!);
    // The editor's category list has a Writing option too; the dialog's is the last one.
    await user.click((await screen.findAllByRole('option', { name: 'Writing' })).at(-1)!);
    await user.click(submit);
    expect(await screen.findByText('Access saved.')).toBeInTheDocument();
    expect(await api.find('PATCH', '/chatbots/7/access/')[0]!.json()).toEqual({ is_public: false, member_group_ids: [5], category_id: 2 });
    // The editor's categories follow what the dialog saved, and nothing is left unsaved.
    expect(await screen.findByText('Writing', { selector: '.mantine-Pill-label' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    await waitFor(() => expect(screen.getAllByTestId('chatbot-status')[0]).toHaveTextContent('Shared with groups'));

    await user.click(screen.getByRole('button', { name: 'Access' }));
    dialog = await screen.findByRole('dialog', { name: 'Who can use this chatbot' });
    await user.click(within(dialog).getByRole('radio', { name: /Everyone in the workspace/ }));
    await user.type(within(dialog).getByRole('textbox', { name: /Custom public link/ }), 'taken-link');
    expect(await within(dialog).findByText('This link is already taken.')).toBeInTheDocument();
    const request = within(dialog).getByRole('button', { name: 'Ask to publish' });
    expect(request).toBeDisabled();
    await user.clear(within(dialog).getByRole('textbox', { name: /Custom public link/ }));
    await user.click(request);
    expect(await screen.findByText('Publishing requested. An administrator will review it.')).toBeInTheDocument();
    expect(await api.find('PATCH', '/chatbots/7/access/')[1]!.json()).toEqual({ is_public: true, member_group_ids: [] });
    await waitFor(() => expect(screen.getAllByTestId('chatbot-status')[0]).toHaveTextContent('Pending review'));
    expect(screen.getByText('An administrator is reviewing your request to publish this chatbot.')).toBeInTheDocument();
  });

  it("does not offer another member's chatbot for editing", async () => {
    installFakeApi(routes({ 'GET /chatbots/7/': () => Response.json(chatbotFixture({ creator: { id: 99, name: 'Bo' }, status: 'shared' })) }));
    renderEditor();
    expect(await screen.findByText('This chatbot does not exist or you cannot edit it.')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Name (English)' })).not.toBeInTheDocument();
  });

  it('offers sharing only once the chatbot has a name', async () => {
    installFakeApi(routes({ 'GET /chatbots/7/': () => Response.json(chatbotFixture({ en_name: '', ko_name: '', status: 'draft' })) }));
    const user = userEvent.setup();
    renderEditor();
    await user.click(await screen.findByRole('button', { name: 'Access' }));
    const dialog = await screen.findByRole('dialog', { name: 'Who can use this chatbot' });
    expect(within(dialog).getByText('Name and save the chatbot before sharing it.')).toBeInTheDocument();
    expect(within(dialog).getByRole('radio', { name: /Member groups/ })).toBeDisabled();
    expect(within(dialog).getByRole('radio', { name: /Everyone in the workspace/ })).toBeDisabled();
  });

  describe('tools', () => {
    const pickable = {
      items: [
        { id: 21, name: 'current_time', description: 'The current time in a time zone.', server_name: 'Demo tools', is_sensitive: false },
        { id: 22, name: 'convert_units', description: 'Converts between units.', server_name: 'Demo tools', is_sensitive: true },
      ],
    };

    it('offers the tools the member may pick, saves the ticked ones and the step limit with the form, by keyboard', async () => {
      // Tool 30 was given by an admin: not offered, kept, and only counted.
      const api = installFakeApi(
        routes({ 'GET /tools/': () => Response.json(pickable), 'GET /chatbots/7/': () => Response.json((current = chatbotFixture({ tool_ids: [30] }))) }),
      );
      const user = userEvent.setup();
      renderEditor();
      const picker = await screen.findByRole('group', { name: 'Tools the chatbot may call' });
      const time = within(picker).getByRole('checkbox', { name: /current_time/ });
      expect(within(picker).getByText(/From Demo tools · The current time in a time zone\./)).toBeInTheDocument();
      expect(within(picker).getByText('Sensitive')).toBeInTheDocument();
      expect(screen.getByTestId('tools-others')).toHaveTextContent('1 more tool, not offered to you, stays on this chatbot.');
      time.focus();
      await user.keyboard(' ');
      expect(time).toBeChecked();
      const steps = screen.getByRole('textbox', { name: 'Tool steps per answer' });
      await user.clear(steps);
      await user.type(steps, '3');
      await user.click(screen.getByRole('button', { name: 'Save' }));
      expect(await screen.findByText('Chatbot saved.')).toBeInTheDocument();
      expect(await api.find('PATCH', '/chatbots/7/')[0]!.json()).toEqual({ tool_ids: [21, 30], tool_step_limit: 3 });
      await waitFor(() => expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled());
      expect(screen.getByRole('checkbox', { name: /current_time/ })).toBeChecked();
    });

    it('keeps a steps box within its bounds', async () => {
      installFakeApi(routes({ 'GET /tools/': () => Response.json(pickable) }));
      const user = userEvent.setup();
      renderEditor();
      const steps = await screen.findByRole('textbox', { name: 'Tool steps per answer' });
      expect(screen.getByText('1 to 10. How many rounds of tool calls one answer may take.')).toBeInTheDocument();
      await user.clear(steps);
      await user.type(steps, '15');
      expect(steps).not.toHaveValue('15');
    });

    it('says when no tool is offered', async () => {
      installFakeApi(routes());
      renderEditor();
      expect(await screen.findByText('No tools are available to you. Your admins can enable tools in the console.')).toBeInTheDocument();
    });

    it('says when the list could not be loaded, and loads it again on retry', async () => {
      let calls = 0;
      installFakeApi(
        routes({ 'GET /tools/': () => (++calls === 1 ? Response.json({ code: 'internal_error', message: '' }, { status: 500 }) : Response.json(pickable)) }),
      );
      const user = userEvent.setup();
      renderEditor();
      expect(await screen.findByText('The tools could not be loaded.', {}, { timeout: 4000 })).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Try again' }));
      expect(await screen.findByRole('checkbox', { name: /current_time/ })).toBeInTheDocument();
    });
  });
});
