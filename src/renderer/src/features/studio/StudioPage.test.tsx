import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setPlatformForTests } from '../../platform';
import { useUserSession } from '../../stores/userSession';
import { installFakeApi, page } from '../../test/fakeApi';
import { renderScreen } from '../../test/render';
import StudioPage from './StudioPage';
import { chatbotFixture } from './studioFixtures';

beforeEach(() => useUserSession.setState({ member: { id: 3 } as never }));
afterEach(() => {
  setPlatformForTests(null);
  useUserSession.setState({ member: null });
});

describe('Studio: my chatbots', () => {
  it("lists the member's own chatbots with their status, the admin's feedback on a rejected one, and searches through the URL", async () => {
    const api = installFakeApi({
      'GET /chatbots/': () =>
        Response.json(
          page([
            chatbotFixture({ id: 1, en_name: '', status: 'draft' }),
            chatbotFixture({ id: 2, en_name: 'Shared one', status: 'shared', member_group_ids: [4] }),
            chatbotFixture({ id: 3, en_name: 'Refused one', status: 'rejected', publish_status: 'rejected', publish_feedback: 'Add sources' }),
          ]),
        ),
    });
    const user = userEvent.setup();
    const { router } = renderScreen(<StudioPage />, { route: '/dashboard/studio' });
    const list = await screen.findByRole('list', { name: 'My chatbots' }, { timeout: 4000 });
    const cards = within(list).getAllByTestId('studio-chatbot');
    expect(cards.map((card) => within(card).getByTestId('chatbot-status').textContent)).toEqual(['Draft', 'Shared with groups', 'Rejected']);
    expect(within(cards[0]!).getByRole('link', { name: 'Untitled chatbot' })).toHaveAttribute('href', '/dashboard/studio/1');
    expect(within(cards[2]!).getByText('Admin feedback: Add sources')).toBeInTheDocument();
    expect(new URL(api.find('GET', '/chatbots/')[0]!.url).searchParams.get('creator_id')).toBe('3');

    await user.type(screen.getByRole('searchbox', { name: 'Search my chatbots' }), 'ref');
    await waitFor(() => expect(router.state.location.search).toContain('search=ref'));
    await waitFor(() => expect(api.requests.some((request) => new URL(request.url).searchParams.get('search_term') === 'ref')).toBe(true));
  });

  it('offers Create on the empty list, which asks for a name, makes the chatbot with it and opens its editor', async () => {
    const api = installFakeApi({
      'GET /chatbots/': () => Response.json(page([])),
      'POST /chatbots/': () => Response.json(chatbotFixture({ id: 42, en_name: 'Recipe finder', status: 'private' })),
    });
    const user = userEvent.setup();
    const { router } = renderScreen(<StudioPage />, { route: '/dashboard/studio' });
    expect(await screen.findByText('No chatbots yet', undefined, { timeout: 4000 })).toBeInTheDocument();
    const buttons = screen.getAllByRole('button', { name: 'Create chatbot' });
    await user.click(buttons[buttons.length - 1]!);
    const dialog = await screen.findByRole('dialog', { name: 'New chatbot' });
    // Nothing is saved before the name is given.
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('This is a required field.')).toBeVisible();
    expect(api.find('POST', '/chatbots/')).toHaveLength(0);
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), ' Recipe finder {Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/studio/42'));
    const [created] = api.find('POST', '/chatbots/');
    expect(await created!.json()).toEqual({ en_name: 'Recipe finder' });
  });

  it('says so when the list cannot be loaded and tries again on request', async () => {
    let fail = true;
    installFakeApi({
      'GET /chatbots/': () => (fail ? Response.json({ code: 'internal', message: 'down' }, { status: 500 }) : Response.json(page([chatbotFixture()]))),
      'POST /log-error/': () => Response.json({ ok: true }),
    });
    const user = userEvent.setup();
    renderScreen(<StudioPage />, { route: '/dashboard/studio' });
    const retry = await screen.findByRole('button', { name: 'Try again' }, { timeout: 4000 });
    fail = false;
    await user.click(retry);
    expect(await screen.findByRole('link', { name: 'Helper' })).toBeInTheDocument();
  });
});
