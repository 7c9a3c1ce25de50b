import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatFrame, ChatMeta } from '../../../../shared/api';
import { setPlatformForTests } from '../../platform';
import { installFakeApi, page } from '../../test/fakeApi';
import { renderScreen } from '../../test/render';
import { useActiveRunStore } from './activeRun';
import { useModesStore } from './modes/modesStore';
import ChatPage from './ChatPage';
import { chatStream, testChatbot, testMessage, testModel } from '../../test/fixtures';

afterEach(() => {
  useActiveRunStore.getState().run?.stop();
  useActiveRunStore.setState({ run: null, draft: '' });
  useModesStore.setState({ thinking: false, image: false, taskModeId: null });
  setPlatformForTests(null);
});

const model = testModel({ display_name: 'Demo Model' });
const chatbot = testChatbot({ id: 5, en_name: 'Helper', ko_name: '도우미', en_key_features: 'Answers questions', llm_model: model });
const session = (hash: string, title: string | null) => ({
  id: 1,
  hash_id: hash,
  chatbot_id: 5,
  chatbot: { id: 5 },
  title,
  is_public: false,
  creator_name: 'Ada',
  last_chat_at: null,
  created_at: '2025-01-01T00:00:00Z',
});

const baseRoutes = {
  'GET /chatbots/5/': () => Response.json(chatbot),
  'GET /chatbots/': () => Response.json(page([chatbot])),
  'GET /sessions/': () => Response.json(page([])),
  'POST /log-error/': () => Response.json({ ok: true }),
  'GET /task-modes/': () => Response.json([]),
};

/** The session "Trip plans" (abc), and the same with no messages yet. */
const tripSession = { 'GET /sessions/abc/': () => Response.json(session('abc', 'Trip plans')) };
const emptyTripSession = { ...tripSession, 'GET /sessions/abc/history/': () => Response.json({ items: [], has_more: false, context_tokens: 0 }) };
/** The stream's meta for an answer sent in that session. */
const tripAnswerMeta: ChatMeta = { session_hash_id: 'abc', session_created: false, member_message_id: 41, chatbot_message_id: 42, model: 'demo' };

const renderChat = (route: string) => renderScreen(<ChatPage />, { route, path: '/dashboard/chat/:chatbotId/:sessionHashId?' });

describe('ChatPage', () => {
  it('shows the chatbot, its model details and the session history, older pages fetched with first_id', async () => {
    const api = installFakeApi({
      ...baseRoutes,
      ...tripSession,
      'GET /sessions/abc/history/': (request) => {
        const firstId = new URL(request.url).searchParams.get('first_id');
        const ids = firstId === '21' ? [...Array(20).keys()].map((i) => i + 1) : [...Array(20).keys()].map((i) => i + 21);
        return Response.json({ items: ids.map((id) => testMessage(id)), has_more: firstId !== '21', context_tokens: 500 });
      },
    });
    renderChat('/dashboard/chat/5/abc');

    await waitFor(() => expect(screen.getByTestId('session-title')).toHaveTextContent('Trip plans'));
    expect(screen.getByTestId('chatbot-name')).toHaveTextContent('Helper');
    expect(screen.getByTestId('model-details')).toHaveTextContent(
      '· Demo Model · 128,000 tokens context · 3 credits per 10K input tokens · Released Jun 1, 2025',
    );

    // jsdom has no layout, so the first page never fills the screen and the older one follows.
    await waitFor(() => expect(screen.getAllByTestId(/member-message|chatbot-message/)).toHaveLength(40));
    const history = api.find('GET', '/history/').map((request) => new URL(request.url).searchParams);
    expect(history.map((query) => query.get('first_id'))).toEqual([null, '21']);
    expect(history.every((query) => query.get('size') === '20')).toBe(true);
    const rows = screen.getAllByTestId(/member-message|chatbot-message/);
    expect(rows[0]).toHaveTextContent('message 1');
    expect(rows[39]).toHaveTextContent('message 40');
  });

  it('a search result opens the branch holding its message, loaded back to it and focused, without loading the active branch first', async () => {
    const api = installFakeApi({
      ...baseRoutes,
      ...tripSession,
      // The branch through message 4: 40 messages, two pages.
      'PUT /sessions/abc/branch/': () => Response.json({ items: [...Array(20).keys()].map((i) => testMessage(i + 21)), has_more: true, context_tokens: 500 }),
      'GET /sessions/abc/history/': () => Response.json({ items: [...Array(20).keys()].map((i) => testMessage(i + 1)), has_more: false, context_tokens: 0 }),
    });
    renderChat('/dashboard/chat/5/abc?message=4');

    await waitFor(() => expect(document.activeElement).toHaveAttribute('data-message-id', '4'));
    expect(document.activeElement).toHaveTextContent('message 4');
    const [shown] = api.find('PUT', '/sessions/abc/branch/');
    expect(await shown!.json()).toEqual({ message_id: 4 });
    expect(api.find('GET', '/history/').map((request) => new URL(request.url).searchParams.get('first_id'))).toEqual(['21']);
    expect(screen.getAllByTestId(/member-message|chatbot-message/)).toHaveLength(40);
  });

  it('a first message creates the session, streams the answer, moves to the session URL and titles it', async () => {
    const meta = { session_hash_id: 'new1', session_created: true, member_message_id: 1, chatbot_message_id: 2, model: 'demo' };
    let title: string | null = null;
    const api = installFakeApi({
      ...baseRoutes,
      'POST /chatbots/5/chat/': () =>
        chatStream(meta, [
          { type: 'text', delta: 'Hello' },
          { type: 'text', delta: ' **world**' },
          { type: 'usage', input_tokens: 10, output_tokens: 3, credits: 1 },
          { type: 'end', finish_reason: 'stop' },
        ]),
      'GET /sessions/new1/': () => Response.json(session('new1', title)),
      'PATCH /sessions/new1/generate-title/': () => Response.json(session('new1', (title = 'Greeting'))),
    });
    const user = userEvent.setup();
    const { router } = renderChat('/dashboard/chat/5');

    expect(await screen.findByTestId('chat-welcome')).toHaveTextContent('Ask Helper anything');
    await user.type(screen.getByTestId('composer-input'), 'Hi there{Enter}');

    await waitFor(() => expect(screen.getByTestId('chatbot-message')).toHaveTextContent('Hello world'));
    expect(within(screen.getByTestId('chatbot-message')).getByText('world').tagName).toBe('STRONG');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/chat/5/new1'));
    expect(await screen.findByText('Greeting')).toBeInTheDocument();
    expect(screen.getByTestId('member-message')).toHaveTextContent('Hi there');
    // The created session's history is the streamed turn, not a refetch.
    expect(api.find('GET', '/history/')).toHaveLength(0);
    const [sent] = api.find('POST', '/chatbots/5/chat/');
    expect(await sent!.json()).toMatchObject({ text: 'Hi there' });
  });

  it('a refused send (413) asks to split the question and gives the text back', async () => {
    installFakeApi({
      ...baseRoutes,
      'POST /chatbots/5/chat/': () => Response.json({ code: 'input_too_long', message: 'too long' }, { status: 413 }),
    });
    const user = userEvent.setup();
    renderChat('/dashboard/chat/5');
    await screen.findByTestId('chat-welcome');
    await user.type(screen.getByTestId('composer-input'), 'A very long question{Enter}');

    expect(await screen.findByTestId('chat-error')).toHaveTextContent('Please split your question');
    expect(screen.getByTestId('composer-input')).toHaveValue('A very long question');
  });

  it.each([
    [403, 'model_not_allowed', 'You are not allowed to use this chatbot’s model. Please contact your administrator.'],
    [422, 'restricted_term', 'The message contains a restricted term and was not sent.'],
    [428, 'pii_blocked', 'The message was blocked because it contains personal information'],
  ])('a refused send (%i %s) says why and gives the text back', async (status, code, text) => {
    installFakeApi({ ...baseRoutes, 'POST /chatbots/5/chat/': () => Response.json({ code, message: 'refused' }, { status }) });
    const user = userEvent.setup();
    renderChat('/dashboard/chat/5');
    await screen.findByTestId('chat-welcome');
    await user.type(screen.getByTestId('composer-input'), 'Question{Enter}');
    expect(await screen.findByTestId('chat-error')).toHaveTextContent(text);
    expect(screen.getByTestId('composer-input')).toHaveValue('Question');
  });

  it('shows the sent message masked like the server stored it', async () => {
    const meta: ChatMeta = { session_hash_id: 's9', session_created: true, member_message_id: 1, chatbot_message_id: 2, model: 'demo', masked_pii: ['email'] };
    installFakeApi({
      ...baseRoutes,
      'POST /chatbots/5/chat/': () =>
        chatStream(meta, [
          { type: 'text', delta: 'Noted.' },
          { type: 'end', finish_reason: 'stop' },
        ]),
    });
    const user = userEvent.setup();
    renderChat('/dashboard/chat/5');
    await screen.findByTestId('chat-welcome');
    await user.type(screen.getByTestId('composer-input'), 'Mail kim@example.com{Enter}');
    // The bubble is drawn again when the answer settles: look for the text, not a node found earlier.
    await waitFor(() => expect(screen.getByText('Mail ***@example.com')).toBeInTheDocument());
    expect(screen.queryByText('Mail kim@example.com')).not.toBeInTheDocument();
  });

  it('keeps the streamed tool calls on the answer once it is done, each where it was made, without fetching the history again', async () => {
    const call = { id: 'c1', tool_id: 3, name: 'current_time', server_name: 'Demo tools', arguments: { timezone: 'UTC' }, text_offset: 13 };
    const api = installFakeApi({
      ...baseRoutes,
      ...emptyTripSession,
      'POST /chatbots/5/chat/': () =>
        chatStream(tripAnswerMeta, [
          { type: 'text', delta: 'Let me check.' },
          { type: 'tool', call: { ...call, status: 'running', result: '', duration_ms: null } },
          { type: 'tool', call: { ...call, status: 'ok', result: '12:00 UTC', duration_ms: 40 } },
          { type: 'text', delta: 'It is noon.' },
          { type: 'end', finish_reason: 'stop' },
        ]),
    });
    const user = userEvent.setup();
    renderChat('/dashboard/chat/5/abc');
    await screen.findByText('Trip plans');
    await user.type(screen.getByTestId('composer-input'), 'Time?{Enter}');
    await waitFor(() => expect(screen.getByTestId('chatbot-message')).not.toHaveAttribute('data-streaming'));
    await waitFor(() => expect(useActiveRunStore.getState().run).toBeNull());
    const answer = screen.getByTestId('chatbot-message');
    const step = within(answer).getByRole('button', { name: 'Used current_time' });
    expect(within(answer).getAllByTestId('tool-step')).toHaveLength(1);
    const [first, second] = [within(answer).getByText('Let me check.'), within(answer).getByText('It is noon.')];
    expect(first.compareDocumentPosition(step) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(step.compareDocumentPosition(second) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    await user.click(step);
    expect(within(answer).getByTestId('tool-step-result')).toHaveTextContent('12:00 UTC');
    expect(api.find('GET', '/history/')).toHaveLength(1);
  });

  it('an error frame mid-stream keeps the partial answer and explains the failure', async () => {
    installFakeApi({
      ...baseRoutes,
      ...emptyTripSession,
      'POST /chatbots/5/chat/': () =>
        chatStream(tripAnswerMeta, [
          { type: 'text', delta: 'Partial answer' },
          { type: 'error', code: 'upstream_failed', message: 'boom' },
        ]),
    });
    const user = userEvent.setup();
    renderChat('/dashboard/chat/5/abc');
    await screen.findByText('Trip plans');
    await user.type(screen.getByTestId('composer-input'), 'Question{Enter}');

    await waitFor(() => expect(screen.getByTestId('chat-error')).toHaveTextContent('An error occurred while generating the answer'));
    expect(screen.getByTestId('chatbot-message')).toHaveTextContent('Partial answer');
  });

  it('an answer its server cut off shows as such, with its text, and Ask again sends the question again from the keyboard', async () => {
    const meta: ChatMeta = { ...tripAnswerMeta, member_message_id: 43, chatbot_message_id: 44 };
    const api = installFakeApi({
      ...baseRoutes,
      ...tripSession,
      'GET /sessions/abc/history/': () =>
        Response.json({
          items: [
            testMessage(41, { text: 'What is a lease?', files: [{ id: 9, url: '/api/v1/files/9/', type: 'application/pdf', name: 'terms.pdf' }] }),
            testMessage(42, { text: 'A lease is a promise that', interrupted: 'interrupted' }),
          ],
          has_more: false,
          context_tokens: 0,
        }),
      'POST /chatbots/5/chat/': () =>
        chatStream(meta, [
          { type: 'text', delta: 'A lease is a time-bound claim.' },
          { type: 'end', finish_reason: 'stop' },
        ]),
    });
    const user = userEvent.setup();
    renderChat('/dashboard/chat/5/abc');

    const answer = (await screen.findAllByTestId('chatbot-message'))[0]!;
    expect(answer).toHaveTextContent('A lease is a promise that');
    expect(within(answer).getByTestId('interrupted-badge')).toHaveTextContent('Answer cut off');
    const askAgain = within(answer).getByRole('button', { name: 'Ask again' });
    askAgain.focus();
    await user.keyboard('{Enter}');

    await waitFor(() => expect(screen.getAllByTestId('chatbot-message').at(-1)).toHaveTextContent('A lease is a time-bound claim.'));
    const [sent] = api.find('POST', '/chatbots/5/chat/');
    expect(await sent!.json()).toMatchObject({ text: 'What is a lease?', session_hash_id: 'abc', file_ids: [9] });
    // The question asked again shows its file too, without the history being fetched again.
    const asked = screen.getAllByTestId('member-message').at(-1)!;
    expect(within(asked).getByRole('button', { name: 'Open terms.pdf' })).toBeVisible();
    expect(api.find('GET', '/sessions/abc/history/')).toHaveLength(1);
  });

  it('a stored answer still being written shows as such and is fetched again until it is done', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let writing = true;
    const api = installFakeApi({
      ...baseRoutes,
      ...tripSession,
      'GET /sessions/abc/history/': () =>
        Response.json({
          items: [testMessage(41), testMessage(42, writing ? { text: 'Half an ans', streaming: true } : { text: 'Half an answer, now whole.' })],
          has_more: false,
          context_tokens: 0,
        }),
    });
    renderChat('/dashboard/chat/5/abc');

    const answer = await screen.findByTestId('chatbot-message');
    expect(answer).toHaveTextContent('Half an ans');
    expect(within(answer).getByTestId('being-written')).toHaveTextContent('Still being written…');
    expect(within(answer).queryByTestId('interrupted-badge')).toBeNull();
    writing = false;
    await vi.advanceTimersByTimeAsync(3_000);
    await waitFor(() => expect(screen.getByTestId('chatbot-message')).toHaveTextContent('Half an answer, now whole.'));
    expect(screen.queryByTestId('being-written')).toBeNull();
    // Done: no more fetching.
    const fetched = api.find('GET', '/history/').length;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(api.find('GET', '/history/')).toHaveLength(fetched);
    vi.useRealTimers();
  });

  it.each([
    ['answer_not_saved', [], 'The answer could not be saved in full.'],
    ['server_shutting_down', [{ type: 'usage', input_tokens: 10, output_tokens: 3, credits: 1 }], 'The server restarted before the answer was complete.'],
  ] as const)('a stream its server cut off (%s) says so, offers Ask again and fetches the answer as the server kept it', async (code, saved, text) => {
    const api = installFakeApi({
      ...baseRoutes,
      ...emptyTripSession,
      'POST /chatbots/5/chat/': () =>
        chatStream(tripAnswerMeta, [{ type: 'text', delta: 'Partial answer' }, ...saved, { type: 'error', code, message: 'cut off' }]),
    });
    const user = userEvent.setup();
    renderChat('/dashboard/chat/5/abc');
    await screen.findByText('Trip plans');
    await user.type(screen.getByTestId('composer-input'), 'Question{Enter}');

    await waitFor(() => expect(screen.getByTestId('chat-error')).toHaveTextContent(text));
    expect(screen.getByTestId('chatbot-message')).toHaveTextContent('Partial answer');
    expect(screen.getByRole('button', { name: 'Ask again' })).toBeInTheDocument();
    await waitFor(() => expect(api.find('GET', '/history/')).toHaveLength(2));
  });

  it('modes: thinking and a task mode go with the send; the reasoning shows while it lasts, then folds to "Thought for N s"', async () => {
    let answer: (frames: ChatFrame[]) => void = () => {};
    const api = installFakeApi({
      ...baseRoutes,
      'GET /chatbots/5/': () => Response.json({ ...chatbot, llm_model: { ...model, supports_thinking: true } }),
      // A mode named in Korean only: the English screen shows that name.
      'GET /task-modes/': () => Response.json([{ id: 3, ko_name: '요약', en_name: '', mode_name: '요약' }]),
      ...emptyTripSession,
      'POST /chatbots/5/chat/': () => {
        const encoder = new TextEncoder();
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(encoder.encode(`data: ${JSON.stringify({ type: 'thinking', delta: 'Weighing the options' })}\n\n`));
            answer = (frames) => {
              for (const frame of frames) controller.enqueue(encoder.encode(`data: ${JSON.stringify(frame)}\n\n`));
              controller.close();
            };
          },
        });
        return new Response(body, { headers: { 'content-type': 'text/event-stream', 'x-chat-meta': JSON.stringify(tripAnswerMeta) } });
      },
    });
    const user = userEvent.setup();
    renderChat('/dashboard/chat/5/abc');
    await screen.findByText('Trip plans');

    const thinking = screen.getByTestId('thinking-mode-button');
    await waitFor(() => expect(thinking).not.toHaveAttribute('aria-disabled'));
    await user.click(thinking);
    expect(thinking).toHaveAttribute('aria-pressed', 'true');
    await user.click(await screen.findByTestId('task-mode-select'));
    await user.click(await screen.findByRole('option', { name: '요약', hidden: true }));
    await user.type(screen.getByTestId('composer-input'), 'Which one?{Enter}');

    const toggle = await screen.findByTestId('thinking-toggle');
    expect(toggle).toHaveTextContent('Thinking…');
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    // The reasoning text mounts with its collapse a moment after the toggle (slow machines see the gap).
    expect(await screen.findByTestId('thinking-text')).toHaveTextContent('Weighing the options');
    const [sent] = api.find('POST', '/chatbots/5/chat/');
    expect(await sent!.json()).toMatchObject({ text: 'Which one?', thinking: true, task_mode_id: 3 });

    answer([
      { type: 'text', delta: 'The first.' },
      { type: 'usage', input_tokens: 10, output_tokens: 3, credits: 1 },
      { type: 'end', finish_reason: 'stop' },
    ]);
    await waitFor(() => expect(screen.getByTestId('thinking-toggle')).toHaveTextContent(/^Thought for \d+ s$/));
    expect(screen.getByTestId('thinking-toggle')).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByTestId('thinking-text')).toBeNull();
    // The streamed answer gives way to its stored copy, a row of its own: the click goes to the toggle that stays.
    await waitFor(() => expect(screen.getByTestId('thinking-toggle').closest('[data-message-id]')).not.toBeNull());
    await user.click(screen.getByTestId('thinking-toggle'));
    expect(await screen.findByTestId('thinking-text')).toHaveTextContent('Weighing the options');
  });

  it('image mode: the answer shows the generated image, fetched with the member’s credentials, with download and copy', async () => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:image'), revokeObjectURL: vi.fn() }));
    const api = installFakeApi({
      ...baseRoutes,
      ...emptyTripSession,
      'POST /chatbots/5/chat/': () =>
        chatStream(tripAnswerMeta, [
          { type: 'image', url: '/api/v1/files/77/' },
          { type: 'usage', input_tokens: 0, output_tokens: 0, credits: 40 },
          { type: 'end', finish_reason: 'stop' },
        ]),
      'GET /files/77/': () => new Response(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), { headers: { 'content-type': 'image/png' } }),
    });
    const user = userEvent.setup();
    renderChat('/dashboard/chat/5/abc');
    await screen.findByText('Trip plans');
    await user.click(screen.getByTestId('image-mode-button'));
    await user.type(screen.getByTestId('composer-input'), 'A lighthouse{Enter}');

    const image = await screen.findByRole('img', { name: 'Generated image image-77.png' });
    expect(image).toHaveAttribute('src', 'blob:image');
    const [sent] = api.find('POST', '/chatbots/5/chat/');
    expect(await sent!.json()).toMatchObject({ text: 'A lighthouse', image_generation: true });
    // Through the platform's authenticated fetch, not an <img src> that could carry no token.
    expect(api.find('GET', '/files/77/')).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Download image' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy image' })).toBeInTheDocument();
    vi.unstubAllGlobals();
  });

  it('an image that cannot be loaded says so, and the failure is reported', async () => {
    const api = installFakeApi({
      ...baseRoutes,
      ...emptyTripSession,
      'POST /chatbots/5/chat/': () =>
        chatStream(tripAnswerMeta, [
          { type: 'image', url: '/api/v1/files/78/' },
          { type: 'end', finish_reason: 'stop' },
        ]),
      'GET /files/78/': () => Response.json({ code: 'internal', message: 'disk gone' }, { status: 500 }),
    });
    const user = userEvent.setup();
    renderChat('/dashboard/chat/5/abc');
    await screen.findByText('Trip plans');
    await user.click(screen.getByTestId('image-mode-button'));
    await user.type(screen.getByTestId('composer-input'), 'A lighthouse{Enter}');

    expect(await screen.findByText('The image could not be loaded.')).toBeInTheDocument();
    await waitFor(() => expect(api.find('POST', '/log-error/')).toHaveLength(1));
    expect((await api.find('POST', '/log-error/')[0]!.json()).message).toMatch(/^GET \/files\/:id\/ failed with 500/);
  });
});

describe('/dashboard/chat without a chatbot', () => {
  const renderStart = () => renderScreen(<ChatPage />, { route: '/dashboard/chat', path: '/dashboard/chat/:chatbotId?/:sessionHashId?' });
  const switchedOff = testChatbot({ id: 5, en_name: 'Helper', llm_model: testModel({ is_available: false }) });

  it('opens the first default chatbot whose model the member’s group may use', async () => {
    const usable = testChatbot({ id: 6, en_name: 'Writer' });
    const own = testChatbot({ id: 7, en_name: 'Mine', is_default: false });
    installFakeApi({
      ...baseRoutes,
      'GET /chatbots/': () => Response.json(page([switchedOff, usable, own])),
      'GET /chatbots/6/': () => Response.json(usable),
    });
    const { router } = renderStart();
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/chat/6'));
    expect(await screen.findByTestId('chat-welcome')).toHaveTextContent('Ask Writer anything');
  });

  it('says that no chatbot can be used when every model is switched off for the member’s group', async () => {
    installFakeApi({
      ...baseRoutes,
      'GET /chatbots/': () => Response.json(page([switchedOff, testChatbot({ id: 6, is_default: false, llm_model: testModel({ is_available: false }) })])),
    });
    const { router } = renderStart();
    expect(await screen.findByText('No chatbot can be used right now')).toBeVisible();
    expect(screen.getByText('Your group may not use the models of your chatbots. Please contact your administrator.')).toBeVisible();
    expect(router.state.location.pathname).toBe('/dashboard/chat');
  });
});
