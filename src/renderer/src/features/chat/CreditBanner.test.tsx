import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MemberUsage } from '../../../../shared/api';
import { setPlatformForTests } from '../../platform';
import { useUserSession } from '../../stores/userSession';
import { installFakeApi, page } from '../../test/fakeApi';
import { testMember } from '../../test/fixtures';
import { renderScreen } from '../../test/render';
import { useActiveRunStore } from './activeRun';
import ChatPage from './ChatPage';
import { testChatbot, testModel } from '../../test/fixtures';

const model = (lowTier: boolean) =>
  testModel({
    id: lowTier ? 2 : 1,
    name: lowTier ? 'lite' : 'pro',
    display_name: lowTier ? 'Lite' : 'Pro',
    is_low_llm: lowTier,
    is_unlimited: lowTier,
    release_date: null,
  });
const chatbot = (id: number, name: string, lowTier: boolean) => testChatbot({ id, hash_id: `c${id}`, en_name: name, ko_name: name, llm_model: model(lowTier) });
const paid = chatbot(5, 'Helper', false);
const lite = chatbot(6, 'Quick Helper', true);
const member = testMember({ id: 9 });

const usage = (over: Partial<MemberUsage>): MemberUsage => ({
  period_start: '2026-11-01',
  period_end: '2026-11-30',
  limited_by: 'member',
  quota: 100,
  usage: 85.7,
  remaining: 14.3,
  percentage_used: 85.7,
  depleted: false,
  depletion_kind: 'team',
  message_count: 50,
  average_message_cost: 1.2,
  estimated_messages_left: 11,
  models: [],
  ...over,
});

const routes = (usageNow: () => MemberUsage) => ({
  'GET /chatbots/5/': () => Response.json(paid),
  'GET /chatbots/': () => Response.json(page([paid, lite])),
  'GET /sessions/': () => Response.json(page([])),
  'GET /tenants/': () => Response.json({ subdomain: 'demo', tenant_name: 'Demo', logo_url: null, plan: { is_low_llm_free: true } }),
  'GET /members/9/usage/': () => Response.json(usageNow()),
  'POST /log-error/': () => Response.json({ ok: true }),
});

beforeEach(() => {
  localStorage.clear();
  useUserSession.getState().setMember(member);
});
afterEach(() => {
  useActiveRunStore.getState().run?.stop();
  useActiveRunStore.setState({ run: null, draft: '' });
  useUserSession.getState().clear();
  setPlatformForTests(null);
});

const renderChat = () => renderScreen(<ChatPage />, { route: '/dashboard/chat/5', path: '/dashboard/chat/:chatbotId/:sessionHashId?' });

describe('credit banner on the chat page', () => {
  it('warns at 80 % with the figures rounded down, and once dismissed stays away for the period', async () => {
    installFakeApi(routes(() => usage({})));
    const user = userEvent.setup();
    const { unmount } = renderChat();
    const warning = await screen.findByTestId('credit-warning');
    expect(warning).toHaveTextContent('You have used 85% of your credits; 15 left. Ask your administrator for more credits or a plan upgrade.');
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByTestId('credit-warning')).not.toBeInTheDocument();
    unmount();

    renderChat();
    await screen.findByTestId('chat-welcome');
    await waitFor(() => expect(screen.queryByTestId('composer-input')).toBeInTheDocument());
    expect(screen.queryByTestId('credit-warning')).not.toBeInTheDocument();
  });

  it('a send refused with 402 says who ran out, and the banner leads to the low-tier chatbot', async () => {
    let current = usage({ percentage_used: 99, remaining: 0.5, estimated_messages_left: 0 });
    installFakeApi({
      ...routes(() => current),
      'POST /chatbots/5/chat/': () => {
        current = usage({ depleted: true, remaining: -0.2, percentage_used: 100.2, estimated_messages_left: 0, depletion_kind: 'tenant' });
        return Response.json({ code: 'credits_depleted', message: 'depleted', details: { depletion: 'tenant' } }, { status: 402 });
      },
    });
    const user = userEvent.setup();
    renderChat();
    expect(await screen.findByTestId('credit-warning')).toHaveTextContent('Messages left, about: 1.');
    await user.type(screen.getByTestId('composer-input'), 'Hello{Enter}');

    expect(await screen.findByTestId('chat-error')).toHaveTextContent('Your organization has run out of credits.');
    const depleted = await screen.findByTestId('credit-depleted');
    expect(depleted).toHaveTextContent('Your organization has run out of credits. Ask your administrator');
    expect(screen.getByTestId('credit-low-tier-link')).toHaveAttribute('href', '/dashboard/chat/6');
    expect(screen.getByTestId('credit-low-tier-link')).toHaveTextContent('Continue with Quick Helper');
    // An organisation member does not pay: no way to the plans page, only their administrator.
    expect(screen.queryByTestId('credit-plans-link')).not.toBeInTheDocument();
  });

  it('offers those who pay (an administrator, an individual) the plans page as the upgrade prompt', async () => {
    useUserSession.getState().setMember({ ...member, is_admin: true });
    installFakeApi(routes(() => usage({ depleted: true, remaining: -0.2, percentage_used: 100.2, estimated_messages_left: 0, depletion_kind: 'tenant' })));
    const { unmount } = renderChat();
    expect(await screen.findByTestId('credit-plans-link')).toHaveAttribute('href', '/dashboard/plans');
    unmount();

    useUserSession.getState().setMember({ ...member, member_type: 'individual' });
    installFakeApi(routes(() => usage({})));
    renderChat();
    const warning = await screen.findByTestId('credit-warning');
    expect(warning).toHaveTextContent('See plans');
    expect(screen.getByTestId('credit-plans-link')).toHaveAttribute('href', '/dashboard/plans');
  });
});
