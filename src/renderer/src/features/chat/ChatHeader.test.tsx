import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { Session } from '../../../../shared/api';
import { setPlatformForTests } from '../../platform';
import { installFakeApi } from '../../test/fakeApi';
import { renderScreen } from '../../test/render';
import { testChatbot, testModel } from '../../test/fixtures';
import { ChatHeader } from './ChatHeader';

const session: Session = {
  id: 1,
  hash_id: 'abc',
  chatbot_id: 5,
  chatbot: { id: 5 },
  title: 'Old title',
  is_public: false,
  creator_name: 'Ada',
  last_chat_at: null,
  created_at: '2025-01-01T00:00:00Z',
};

afterEach(() => setPlatformForTests(null));

async function openRename() {
  const user = userEvent.setup();
  renderScreen(<ChatHeader chatbot={undefined} session={session} hasSession onNewSession={() => undefined} />);
  await user.click(screen.getByRole('button', { name: 'Rename' }));
  const dialog = await screen.findByRole('dialog', { name: 'Rename session' });
  return { user, dialog, title: within(dialog).getByLabelText('Title') };
}

describe('rename dialog (the session patch body schema as form rules)', () => {
  it('refuses a blank title with its message and sends nothing', async () => {
    const api = installFakeApi({ 'GET /chatbots/': () => Response.json({ items: [], total_items: 0, total_pages: 0, page: 1, page_size: 30 }) });
    const { user, dialog, title } = await openRename();
    await user.clear(title);
    await user.type(title, '   ');
    expect(within(dialog).getByText('This is a required field.')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(api.find('PATCH', '/sessions/abc/')).toHaveLength(0);
  });

  it('sends the trimmed title the server checks', async () => {
    const api = installFakeApi({
      'GET /chatbots/': () => Response.json({ items: [], total_items: 0, total_pages: 0, page: 1, page_size: 30 }),
      'PATCH /sessions/abc/': async (request) => Response.json({ ...session, ...(await request.json()) }),
    });
    const { user, title } = await openRename();
    await user.clear(title);
    await user.type(title, '  New title ');
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Session renamed.')).toBeInTheDocument();
    expect(await api.find('PATCH', '/sessions/abc/')[0]!.json()).toEqual({ title: 'New title' });
  });
});

describe('model details', () => {
  const tenant = (free: boolean) => ({ subdomain: 'demo', tenant_name: 'Demo', logo_url: null, plan: { is_low_llm_free: free } });
  const emptyList = () => Response.json({ items: [], total_items: 0, total_pages: 0, page: 1, page_size: 30 });
  const unlimited = testChatbot({
    id: 5,
    en_name: 'Helper',
    llm_model: testModel({ display_name: 'Swift Lite (unlimited)', is_unlimited: true, context_limit: 32_000, input_cost_per_10k: 0.5 }),
  });

  it('says an unlimited model on a plan that makes it free uses no credits, instead of its prices', async () => {
    installFakeApi({ 'GET /tenants/': () => Response.json(tenant(true)), 'GET /chatbots/': emptyList });
    renderScreen(<ChatHeader chatbot={unlimited} session={undefined} hasSession={false} onNewSession={() => undefined} />);
    await waitFor(() => expect(screen.getByTestId('model-details')).toHaveTextContent('· Swift Lite (unlimited) · 32,000 tokens context · No credits used'));
    expect(screen.getByTestId('model-details')).not.toHaveTextContent('credits per 10K');
  });

  it('lists the price of the same model where the plan charges for it', async () => {
    installFakeApi({ 'GET /tenants/': () => Response.json(tenant(false)), 'GET /chatbots/': emptyList });
    renderScreen(<ChatHeader chatbot={unlimited} session={undefined} hasSession={false} onNewSession={() => undefined} />);
    await waitFor(() => expect(screen.getByTestId('model-details')).toHaveTextContent('0.5 credits per 10K input tokens'));
  });
});
