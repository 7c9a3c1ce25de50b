import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setPlatformForTests } from '../../platform';
import { installFakeApi, page } from '../../test/fakeApi';
import { renderScreen } from '../../test/render';
import { SessionList } from './SessionList';
import { testChatbot, testModel } from '../../test/fixtures';

afterEach(() => {
  setPlatformForTests(null);
  vi.unstubAllGlobals();
});

function session(hashId: string, title: string | null, chatbotId = 5, lastChatAt: string | null = null) {
  return {
    id: hashId.length,
    hash_id: hashId,
    chatbot_id: chatbotId,
    chatbot: { id: chatbotId },
    title,
    is_public: false,
    creator_name: 'Ada',
    last_chat_at: lastChatAt,
    created_at: '2025-01-01T00:00:00Z',
  };
}

function chatbot(id: number, isDefault: boolean) {
  return testChatbot({
    id,
    hash_id: `c${id}`,
    en_name: `Bot ${id}`,
    ko_name: `봇 ${id}`,
    is_default: isDefault,
    llm_model: testModel({ display_name: 'Demo', context_limit: 8000 }),
  });
}

/** A DELETE that answers only when the test says so, to look at the list in between. */
function deferredDelete(status: number) {
  let answer: () => void = () => undefined;
  const answered = new Promise<void>((resolve) => (answer = resolve));
  const handler = async () => {
    await answered;
    return status === 200 ? Response.json({ ok: true }) : Response.json({ code: 'internal_error', message: 'fail' }, { status });
  };
  return { handler, answer };
}

describe('My chats', () => {
  it('groups the chats under Today, Yesterday, Previous 7 days and then by month', async () => {
    const daysAgo = (days: number) => {
      const date = new Date();
      date.setDate(date.getDate() - days);
      return date.toISOString();
    };
    const twoMonthsAgo = new Date();
    twoMonthsAgo.setDate(1);
    twoMonthsAgo.setMonth(twoMonthsAgo.getMonth() - 2);
    installFakeApi({
      'GET /sessions/': () =>
        Response.json(
          page([
            session('aaa', 'Bake sourdough bread', 5, daysAgo(0)),
            session('bbb', 'Plan a weekend trip', 5, daysAgo(1)),
            session('ccc', 'Quarterly report', 5, daysAgo(3)),
            session('ddd', 'Busan itinerary', 5, twoMonthsAgo.toISOString()),
          ]),
        ),
      'GET /chatbots/': () => Response.json(page([chatbot(1, true)])),
    });
    renderScreen(<SessionList />);

    const month = new Intl.DateTimeFormat('en', { year: 'numeric', month: 'long' }).format(twoMonthsAgo);
    await waitFor(() =>
      expect(screen.getAllByTestId('session-group').map((heading) => heading.textContent)).toEqual(['Today', 'Yesterday', 'Previous 7 days', month]),
    );
    const titlesUnder = (heading: string) =>
      within(screen.getByRole('group', { name: heading }))
        .getAllByRole('link')
        .map((link) => link.textContent);
    expect(titlesUnder('Today')).toEqual(['Bake sourdough bread']);
    expect(titlesUnder('Yesterday')).toEqual(['Plan a weekend trip']);
    expect(titlesUnder('Previous 7 days')).toEqual(['Quarterly report']);
    expect(titlesUnder(month)).toEqual(['Busan itinerary']);
  });

  it('removes a deleted session at once and restores it with error_delete_session when the server fails', async () => {
    const deletion = deferredDelete(500);
    installFakeApi({
      'GET /sessions/': () => Response.json(page([session('aaa', 'Trip to Jeju'), session('bbb', null)])),
      'GET /chatbots/': () => Response.json(page([chatbot(1, true)])),
      'DELETE /sessions/aaa/': deletion.handler,
      'POST /log-error/': () => Response.json({ ok: true }),
    });
    const user = userEvent.setup();
    renderScreen(<SessionList />);

    expect(await screen.findByText('Trip to Jeju')).toBeInTheDocument();
    expect(screen.getByText('Untitled')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Delete “Trip to Jeju”' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Delete “Trip to Jeju”?')).toBeInTheDocument();
    expect(within(dialog).getByText(/The chat “Trip to Jeju” and all of its messages/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    await waitFor(() => expect(screen.queryByText('Trip to Jeju')).not.toBeInTheDocument());
    deletion.answer();

    expect(await screen.findByText('The chat could not be deleted. Please try again.')).toBeInTheDocument();
    expect(await screen.findByText('Trip to Jeju')).toBeInTheDocument();
  });

  it('loads the next page when the end of the list scrolls into view', async () => {
    let reachEnd: () => void = () => undefined;
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        constructor(callback: IntersectionObserverCallback) {
          reachEnd = () => callback([{ isIntersecting: true } as IntersectionObserverEntry], this as unknown as IntersectionObserver);
        }
        observe() {}
        disconnect() {}
      },
    );
    const api = installFakeApi({
      'GET /sessions/': (request) =>
        new URL(request.url).searchParams.get('page') === '2'
          ? Response.json(page([session('old', 'Older chat')], 2, 2))
          : Response.json(page([session('new', 'Newest chat')], 1, 2)),
      'GET /chatbots/': () => Response.json(page([chatbot(1, true)])),
    });
    renderScreen(<SessionList />);
    expect(await screen.findByText('Newest chat')).toBeInTheDocument();
    expect(screen.queryByText('Older chat')).not.toBeInTheDocument();

    act(() => reachEnd());

    expect(await screen.findByText('Older chat')).toBeInTheDocument();
    expect(api.find('GET', '/sessions/?page=2')).toHaveLength(1);
  });

  it('Cancel keeps the session', async () => {
    const api = installFakeApi({
      'GET /sessions/': () => Response.json(page([session('aaa', 'Keep me')])),
      'GET /chatbots/': () => Response.json(page([chatbot(1, true)])),
    });
    const user = userEvent.setup();
    renderScreen(<SessionList />);
    await user.click(await screen.findByRole('button', { name: 'Delete “Keep me”' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(screen.getByText('Keep me')).toBeInTheDocument();
    expect(api.find('DELETE', '/sessions/')).toHaveLength(0);
  });

  it('deleting the open session goes to the chat of the first default chatbot', async () => {
    const deletion = deferredDelete(200);
    installFakeApi({
      'GET /sessions/': () => Response.json(page([session('open1', 'Open one', 9)])),
      'GET /chatbots/': () => Response.json(page([chatbot(9, false), chatbot(2, true), chatbot(3, true)])),
      'DELETE /sessions/open1/': deletion.handler,
    });
    const user = userEvent.setup();
    const { router } = renderScreen(<SessionList />, { route: '/dashboard/chat/9/open1', path: '/dashboard/chat/:chatbotId/:sessionHashId' });

    await user.click(await screen.findByRole('button', { name: 'Delete “Open one”' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    deletion.answer();

    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/chat/2'));
  });
});
