import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setPlatformForTests } from '../../../platform';
import { installFakeApi, page } from '../../../test/fakeApi';
import { testChatbot } from '../../../test/fixtures';
import { renderScreen } from '../../../test/render';
import DefaultChatbotsPage from './DefaultChatbotsPage';

afterEach(() => setPlatformForTests(null));

const group = (id: number, en: string) => ({
  id,
  ko_name: '',
  en_name: en,
  is_default: id === 1,
  credit_quota: null,
  member_credit_quota: null,
  member_count: 1,
  usable_models: [],
  created_at: '2026-01-01T00:00:00.000Z',
});
const groups = [group(1, 'Default group'), group(2, 'Research'), group(3, 'Sales')];
const adminChatbot = (overrides: Parameters<typeof testChatbot>[0], memberGroups: { id: number; en_name: string }[] = []) => ({
  ...testChatbot(overrides),
  creator_email: null,
  member_groups: memberGroups.map((g) => ({ ...g, ko_name: '' })),
});

describe('default chatbots screen', () => {
  it('lists the groups each default chatbot starts for and saves a new choice, keeping who sees it', async () => {
    let coach = adminChatbot({ id: 7, en_name: 'Writing Coach', member_group_ids: [2, 3] }, [
      { id: 2, en_name: 'Research' },
      { id: 3, en_name: 'Sales' },
    ]);
    const general = adminChatbot({ id: 5, en_name: 'General Assistant', default_member_groups: [1] });
    const api = installFakeApi({
      'GET /admin/chatbots/': () => Response.json(page([general, coach])),
      'GET /admin/member-groups/': () => Response.json(page(groups)),
      'PATCH /chatbots/7/access/': async (request) => {
        const body = (await request.json()) as { default_member_group_ids: number[] };
        coach = { ...coach, default_member_groups: body.default_member_group_ids };
        return Response.json(coach);
      },
    });
    renderScreen(<DefaultChatbotsPage />);
    const [generalRow, coachRow] = await screen.findAllByTestId('default-chatbot-row');
    expect(await within(generalRow!).findByText('Default group')).toBeVisible();
    expect(within(coachRow!).getByTestId('starting-groups')).toHaveTextContent('No group');

    await userEvent.click(within(coachRow!).getByRole('button', { name: 'Choose groups that start with Writing Coach' }));
    const dialog = await screen.findByRole('dialog', { name: 'Groups that start with Writing Coach' });
    // Only the groups that see it may start with it.
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Member groups' }));
    const options = (await screen.findAllByRole('option')).map((option) => option.textContent);
    expect(options).toEqual(['Research', 'Sales']);
    await userEvent.click(screen.getByRole('option', { name: 'Sales' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Starting groups of Writing Coach saved.')).toBeVisible();
    const [patch] = api.find('PATCH', '/chatbots/7/access/');
    expect(await patch!.json()).toEqual({ is_public: false, member_group_ids: [2, 3], default_member_group_ids: [3] });
    await waitFor(() => expect(within(screen.getAllByTestId('default-chatbot-row')[1]!).getByTestId('starting-groups')).toHaveTextContent('Sales'));
  });

  it('offers every group for a chatbot everyone sees, and says why a refused choice failed', async () => {
    installFakeApi({
      'GET /admin/chatbots/': () => Response.json(page([adminChatbot({ id: 5, en_name: 'General Assistant' })])),
      'GET /admin/member-groups/': () => Response.json(page(groups)),
      'PATCH /chatbots/5/access/': () => Response.json({ code: 'validation_error', message: 'x' }, { status: 422 }),
    });
    renderScreen(<DefaultChatbotsPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Choose groups that start with General Assistant' }));
    const dialog = await screen.findByRole('dialog', { name: 'Groups that start with General Assistant' });
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Member groups' }));
    expect((await screen.findAllByRole('option')).map((option) => option.textContent)).toEqual(['Default group', 'Research', 'Sales']);
    await userEvent.click(screen.getByRole('option', { name: 'Research' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('A chosen group can no longer see this chatbot. Reload the page and choose again.')).toBeVisible();
    expect(dialog).toBeVisible();
  });
});
