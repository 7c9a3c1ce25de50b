import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatMeta, SessionMessage } from '../../../../shared/api';
import { setPlatformForTests } from '../../platform';
import { installFakeApi, page } from '../../test/fakeApi';
import { renderScreen } from '../../test/render';
import { chatStream, testChatbot, testMessage, testModel } from '../../test/fixtures';
import { useActiveRunStore } from './activeRun';
import ChatPage from './ChatPage';

afterEach(() => {
  useActiveRunStore.getState().run?.stop();
  useActiveRunStore.setState({ run: null, draft: '' });
  setPlatformForTests(null);
});

const chatbot = testChatbot({ id: 5, en_name: 'Helper', llm_model: testModel() });

const message = (id: number, text: string, extra: Partial<SessionMessage> = {}) => testMessage(id, { created_at: '2026-11-01T00:00:00Z', text, ...extra });

const historyOf = (...items: SessionMessage[]) => ({ items, has_more: false, context_tokens: 100 });

/** "Where to?" answered twice before (answers 40 and 42): the newer shown, 2 of 2. */
const question = message(39, 'Where to?', { parent_id: null });
const olderAnswer = message(40, 'Lisbon', { parent_id: 39, sibling_count: 2, sibling_position: 1 });
const newerAnswer = message(42, 'Porto', { parent_id: 39, sibling_count: 2, sibling_position: 2 });

function renderSession(routes: Parameters<typeof installFakeApi>[0]) {
  const api = installFakeApi({
    'GET /chatbots/5/': () => Response.json(chatbot),
    'GET /chatbots/': () => Response.json(page([chatbot])),
    'GET /sessions/': () => Response.json(page([])),
    'GET /task-modes/': () => Response.json([]),
    'POST /log-error/': () => Response.json({ ok: true }),
    'GET /sessions/abc/': () =>
      Response.json({
        id: 1,
        hash_id: 'abc',
        chatbot_id: 5,
        chatbot: { id: 5 },
        title: 'Trip',
        is_public: false,
        creator_name: 'Ada',
        last_chat_at: null,
        created_at: '2026-11-01T00:00:00Z',
      }),
    ...routes,
  });
  renderScreen(<ChatPage />, { route: '/dashboard/chat/5/abc', path: '/dashboard/chat/:chatbotId/:sessionHashId?' });
  return api;
}

const answerRow = () => screen.getByTestId('chatbot-message');

describe('versions of a message', () => {
  it('shows "2 / 2" between arrows named for a screen reader, and the previous arrow shows the older answer', async () => {
    const api = renderSession({
      'GET /sessions/abc/history/': () => Response.json(historyOf(question, newerAnswer)),
      'PUT /sessions/abc/branch/': () => Response.json(historyOf(question, olderAnswer)),
    });
    const user = userEvent.setup();
    const versions = await screen.findByRole('group', { name: 'Version 2 of 2' });
    expect(versions).toHaveTextContent('2 / 2');
    expect(within(versions).getByRole('button', { name: 'Next version' })).toBeDisabled();

    await user.click(within(versions).getByRole('button', { name: 'Previous version' }));

    await waitFor(() => expect(answerRow()).toHaveTextContent('Lisbon'));
    const [switched] = api.find('PUT', '/sessions/abc/branch/');
    expect(await switched!.json()).toEqual({ message_id: 42, position: 1 });
    const shown = screen.getByRole('group', { name: 'Version 1 of 2' });
    expect(within(shown).getByRole('button', { name: 'Previous version' })).toBeDisabled();
    // The keyboard stays on the arrows: the previous one is at its end, so focus is on the next one.
    await waitFor(() => expect(within(shown).getByRole('button', { name: 'Next version' })).toHaveFocus());
  });

  it('switching far up loads the new branch back to the version shown and keeps the keyboard on its arrows', async () => {
    // Messages 1-3, then the answer's second version (60) and 35 messages after it: two pages.
    const chain = (ids: number[]) => ids.map((id, index) => testMessage(id, { parent_id: index === 0 ? null : ids[index - 1]! }));
    const withVersion = (messages: SessionMessage[], id: number, position: number) =>
      messages.map((item) => (item.id === id ? { ...item, sibling_count: 2, sibling_position: position } : item));
    const activeIds = [1, 2, 3, ...Array.from({ length: 36 }, (_, i) => 60 + i)];
    const active = withVersion(chain(activeIds), 60, 2);
    // The first version (4) goes on to 40.
    const other = withVersion(chain(Array.from({ length: 40 }, (_, i) => i + 1)), 4, 1);
    const pageOf = (messages: SessionMessage[], firstId: string | null) => {
      const end = firstId === null ? messages.length : messages.findIndex((item) => item.id === Number(firstId));
      return { items: messages.slice(Math.max(0, end - 20), end), has_more: end > 20, context_tokens: 100 };
    };
    let shown = active;
    const api = renderSession({
      'GET /sessions/abc/history/': (request) => Response.json(pageOf(shown, new URL(request.url).searchParams.get('first_id'))),
      'PUT /sessions/abc/branch/': () => Response.json(pageOf((shown = other), null)),
    });
    const user = userEvent.setup();
    const versions = await screen.findByRole('group', { name: 'Version 2 of 2' });

    await user.click(within(versions).getByRole('button', { name: 'Previous version' }));

    const switched = await screen.findByRole('group', { name: 'Version 1 of 2' });
    await waitFor(() => expect(within(switched).getByRole('button', { name: 'Next version' })).toHaveFocus());
    expect(switched.closest('[data-message-id]')).toHaveAttribute('data-message-id', '4');
    expect(screen.getAllByTestId(/member-message|chatbot-message/)).toHaveLength(40);
    // After the switch: its newest page, then the page back to the version (never the old branch's).
    const calls = api.requests.map((request) => `${request.method} ${new URL(request.url).pathname}${new URL(request.url).search}`);
    const after = calls.slice(calls.findIndex((call) => call.startsWith('PUT')));
    expect(after.filter((call) => call.includes('/sessions/abc/'))).toEqual([
      'PUT /api/v1/sessions/abc/branch/',
      'GET /api/v1/sessions/abc/history/?size=20&first_id=21',
    ]);
  });

  it('shows no arrows where a message has a single version', async () => {
    renderSession({ 'GET /sessions/abc/history/': () => Response.json(historyOf(question, message(40, 'Lisbon', { parent_id: 39 }))) });
    await waitFor(() => expect(answerRow()).toHaveTextContent('Lisbon'));
    expect(screen.queryByTestId('version-switcher')).not.toBeInTheDocument();
  });
});

describe('regenerate', () => {
  it('asks the stored question again and shows the new answer as its newest version', async () => {
    const meta: ChatMeta = { session_hash_id: 'abc', session_created: false, member_message_id: 39, chatbot_message_id: 44, model: 'demo' };
    const regenerated = message(44, 'Braga', { parent_id: 39, sibling_count: 3, sibling_position: 3 });
    let stored = historyOf(question, newerAnswer);
    const api = renderSession({
      'GET /sessions/abc/history/': () => Response.json(stored),
      'POST /chatbots/5/chat/': () =>
        chatStream((stored = historyOf(question, regenerated)) && meta, [
          { type: 'text', delta: 'Braga' },
          { type: 'end', finish_reason: 'stop' },
        ]),
    });
    const user = userEvent.setup();
    await waitFor(() => expect(answerRow()).toHaveTextContent('Porto'));

    await user.click(screen.getByRole('button', { name: 'Regenerate answer' }));

    await waitFor(() => expect(answerRow()).toHaveTextContent('Braga'));
    expect(screen.getAllByTestId('member-message')).toHaveLength(1);
    expect(screen.getByTestId('member-message')).toHaveTextContent('Where to?');
    expect(screen.getByRole('group', { name: 'Version 3 of 3' })).toBeInTheDocument();
    const [sent] = api.find('POST', '/chatbots/5/chat/');
    expect(await sent!.json()).toMatchObject({ text: '', file_ids: [], regenerate_message_id: 39, session_hash_id: 'abc' });
  });
});

describe('edit and resend', () => {
  it('edits the question in place (Escape cancels, Enter sends) as a new version with its answer', async () => {
    const meta: ChatMeta = { session_hash_id: 'abc', session_created: false, member_message_id: 45, chatbot_message_id: 46, model: 'demo' };
    const edited = [message(45, 'Where in Spain?', { parent_id: null, sibling_count: 2, sibling_position: 2 }), message(46, 'Madrid', { parent_id: 45 })];
    let stored = historyOf(question, message(40, 'Lisbon', { parent_id: 39 }));
    const api = renderSession({
      'GET /sessions/abc/history/': () => Response.json(stored),
      'POST /chatbots/5/chat/': () =>
        chatStream((stored = historyOf(...edited)) && meta, [
          { type: 'text', delta: 'Madrid' },
          { type: 'end', finish_reason: 'stop' },
        ]),
    });
    const user = userEvent.setup();
    await waitFor(() => expect(answerRow()).toHaveTextContent('Lisbon'));

    await user.click(screen.getByRole('button', { name: 'Edit message' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('textbox', { name: 'Edit your message' })).not.toBeInTheDocument();
    expect(api.find('POST', '/chatbots/5/chat/')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Edit message' }));
    const editor = screen.getByRole('textbox', { name: 'Edit your message' });
    expect(editor).toHaveValue('Where to?');
    await user.clear(editor);
    await user.type(editor, 'Where in Spain?{Enter}');

    await waitFor(() => expect(answerRow()).toHaveTextContent('Madrid'));
    expect(screen.getByTestId('member-message')).toHaveTextContent('Where in Spain?');
    expect(screen.getByRole('group', { name: 'Version 2 of 2' })).toBeInTheDocument();
    const [sent] = api.find('POST', '/chatbots/5/chat/');
    expect(await sent!.json()).toMatchObject({ text: 'Where in Spain?', edit_message_id: 39, session_hash_id: 'abc' });
  });
});
