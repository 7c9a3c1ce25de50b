import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { setPlatformForTests } from '../../platform';
import { installFakeApi, page } from '../../test/fakeApi';
import { renderScreen } from '../../test/render';
import { MySessions } from './MySessions';

afterEach(() => setPlatformForTests(null));

const session = (hashId: string, title: string | null, match?: object) => ({
  id: hashId.length,
  hash_id: hashId,
  chatbot_id: 5,
  chatbot: { id: 5 },
  title,
  is_public: false,
  creator_name: 'Ada',
  last_chat_at: new Date().toISOString(),
  created_at: '2025-01-01T00:00:00Z',
  ...(match ? { match } : {}),
});

const found = [
  session('title-hit', 'Budget review', { title_ranges: [{ start: 0, end: 6 }], message_count: 0, message: null }),
  session('message-hit', null, {
    title_ranges: [],
    message_count: 2,
    message: { id: 42, speaker_type: 'member', snippet: '…the budget for 2026…', ranges: [{ start: 5, end: 11 }] },
  }),
];

/** The fake API: the plain list, and the search results for `budget` (nothing for any other term). */
function fakeSessions() {
  return installFakeApi({
    'GET /sessions/': (request) => {
      const term = new URL(request.url).searchParams.get('search_term');
      if (term === null) return Response.json(page([session('plain', 'Plain chat')]));
      return Response.json(page(term === 'budget' ? found : []));
    },
  });
}

const searchRequests = (api: ReturnType<typeof installFakeApi>) =>
  api.requests.map((request) => new URL(request.url).searchParams.get('search_term')).filter((term) => term !== null);

describe('search across my chats', () => {
  it('asks once the typing pauses and lists the results with the matches marked, each opening at its message', async () => {
    const api = fakeSessions();
    renderScreen(<MySessions />);
    expect(await screen.findByText('Plain chat')).toBeInTheDocument();

    await userEvent.type(screen.getByRole('searchbox', { name: 'Search chats' }), 'budget');
    const results = await screen.findByRole('list', { name: 'Search results' });
    // One request for the whole word, none for what was typed on the way.
    expect(searchRequests(api)).toEqual(['budget']);
    expect(screen.queryByText('Plain chat')).not.toBeInTheDocument();

    const links = within(results).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual(['/dashboard/chat/5/title-hit', '/dashboard/chat/5/message-hit?message=42']);
    expect(Array.from(results.querySelectorAll('mark'), (mark) => mark.textContent)).toEqual(['Budget', 'budget']);
    expect(links[1]).toHaveTextContent('Untitled');
    expect(links[1]).toHaveTextContent('You wrote: …the budget for 2026…');
    expect(screen.getByRole('status')).toHaveTextContent('2 chats found');
  });

  it('says “more than” for a term found in so many chats that the server stops counting', async () => {
    installFakeApi({
      'GET /sessions/': (request) => {
        if (!new URL(request.url).searchParams.has('search_term')) return Response.json(page([session('plain', 'Plain chat')]));
        return Response.json({ ...page(found, 1, 2), total_items: 31, total_is_lower_bound: true });
      },
    });
    renderScreen(<MySessions />);
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search chats' }), 'the');
    await screen.findByRole('list', { name: 'Search results' });
    expect(screen.getByRole('status')).toHaveTextContent('More than 30 chats found');
  });

  it('says when no chat contains the words, and Escape brings the list back', async () => {
    fakeSessions();
    renderScreen(<MySessions />);
    const box = screen.getByRole('searchbox', { name: 'Search chats' });
    await userEvent.type(box, 'zebra');
    expect(await screen.findByTestId('session-search-empty')).toHaveTextContent('No chats contain “zebra”.');

    await userEvent.keyboard('{Escape}');
    expect(box).toHaveValue('');
    expect(await screen.findByText('Plain chat')).toBeInTheDocument();
  });

  it('waits for a second character instead of searching for one', async () => {
    const api = fakeSessions();
    renderScreen(<MySessions />);
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search chats' }), 'b');
    expect(await screen.findByTestId('session-search-too-short')).toHaveTextContent('Type at least 2 characters.');
    expect(searchRequests(api)).toEqual([]);
  });

  it('Ctrl+K focuses the box from anywhere, the message box included', async () => {
    fakeSessions();
    renderScreen(
      <>
        <textarea aria-label="Message" />
        <MySessions />
      </>,
    );
    const composer = screen.getByRole('textbox', { name: 'Message' });
    composer.focus();
    act(() => {
      fireEvent.keyDown(composer, { key: 'k', code: 'KeyK', ctrlKey: true });
    });
    await waitFor(() => expect(screen.getByRole('searchbox', { name: 'Search chats' })).toHaveFocus());
  });
});
