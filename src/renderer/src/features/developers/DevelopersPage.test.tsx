import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiKey } from '../../../../shared/api';
import { setPlatformForTests } from '../../platform';
import { TEST_API_BASE, installFakeApi, page } from '../../test/fakeApi';
import { testChatbot } from '../../test/fixtures';
import { renderScreen } from '../../test/render';
import DevelopersPage from './DevelopersPage';

afterEach(() => setPlatformForTests(null));

const helper = testChatbot({ id: 5, hash_id: 'helper5hash', en_name: 'Helper' });
const writer = testChatbot({ id: 6, hash_id: 'writer6hash', en_name: 'Writer', is_default: false });

function apiKey(overrides: Partial<ApiKey> = {}): ApiKey {
  return {
    id: 1,
    name: 'Website widget',
    key_prefix: 'cbp_live_AbC123',
    chatbots: [{ id: 5, hash_id: 'helper5hash', ko_name: '도우미', en_name: 'Helper' }],
    status: 'active',
    created_at: '2025-03-01T10:00:00Z',
    last_used_at: null,
    expires_at: null,
    revoked_at: null,
    requests_this_month: 3,
    credits_this_month: 1.25,
    ...overrides,
  };
}

const routes = (keys: ApiKey[]) => ({
  'GET /apikeys/': () => Response.json(page(keys)),
  'GET /chatbots/': () => Response.json(page([helper, writer])),
});

describe('Developers page', () => {
  it('lists the keys with their chatbots, usage and status, and documents the API with the real base URL', async () => {
    installFakeApi(routes([apiKey(), apiKey({ id: 2, name: 'Old script', status: 'revoked', revoked_at: '2025-03-02T10:00:00Z', requests_this_month: 1 })]));
    renderScreen(<DevelopersPage />);
    const rows = await screen.findAllByTestId('api-key-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('cbp_live_AbC123…')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('Helper')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('3 requests')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('1.25 credits')).toBeInTheDocument();
    expect(within(rows[0]!).getByRole('button', { name: 'Revoke Website widget' })).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Revoked')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('1 request')).toBeInTheDocument();
    // A revoked key can be neither edited nor revoked again.
    expect(within(rows[1]!).queryByRole('button')).toBeNull();

    expect(await screen.findByTestId('base-url')).toHaveTextContent(`${TEST_API_BASE}/openai`);
    expect(screen.getByTestId('model-id')).toHaveTextContent('helper5hash');
    expect(screen.getByTestId('api-example')).toHaveTextContent(`curl ${TEST_API_BASE}/openai/chat/completions`);
    expect(screen.getByText(/Honoured per call: temperature/)).toBeInTheDocument();
    expect(screen.getByText(/400 invalid or unsupported parameter/)).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByText('Python'));
    expect(screen.getByTestId('api-example')).toHaveTextContent(`base_url="${TEST_API_BASE}/openai"`);
    expect(screen.getByTestId('api-example')).toHaveTextContent('model="helper5hash"');
  });

  it('creates a key: checks the form first, then shows the key once with a warning', async () => {
    const api = installFakeApi({
      ...routes([]),
      'POST /apikeys/': () => Response.json({ ...apiKey({ name: 'CI' }), key: 'cbp_live_AbC123secretsecretsecret' }),
    });
    const user = userEvent.setup();
    renderScreen(<DevelopersPage />);
    expect(await screen.findByTestId('api-keys-empty')).toBeInTheDocument();
    await user.click(screen.getByTestId('create-key'));
    const dialog = await screen.findByRole('dialog', { name: 'Create API key' });
    await user.click(within(dialog).getByTestId('save-key'));
    expect(await within(dialog).findByText('Choose at least one chatbot.')).toBeInTheDocument();
    expect(api.find('POST', '/apikeys/')).toHaveLength(0);

    await user.type(within(dialog).getByTestId('key-name'), 'CI');
    const chatbots = within(dialog).getByTestId('key-chatbots');
    await user.click(chatbots);
    // The picker's own list (the documentation's chatbot select has options too).
    await waitFor(() => expect(document.getElementById(chatbots.getAttribute('aria-controls') ?? '')).not.toBeNull());
    const picker = document.getElementById(chatbots.getAttribute('aria-controls')!)!;
    await user.click(await within(picker).findByRole('option', { name: 'Writer', hidden: true }));
    await user.click(within(dialog).getByTestId('save-key'));

    const reveal = await screen.findByRole('dialog', { name: 'Your new API key' });
    expect(within(reveal).getByTestId('revealed-key')).toHaveTextContent('cbp_live_AbC123secretsecretsecret');
    expect(within(reveal).getByText(/only time the key is shown/)).toBeInTheDocument();
    expect(within(reveal).getByRole('button', { name: 'Copy API key' })).toBeInTheDocument();
    const [post] = api.find('POST', '/apikeys/');
    expect(await post!.json()).toEqual({ name: 'CI', chatbot_ids: [6], expires_at: null });

    await user.click(within(reveal).getByTestId('reveal-done'));
    await waitFor(() => expect(screen.queryByText('cbp_live_AbC123secretsecretsecret')).toBeNull());
  });

  it('revokes a key only after confirmation', async () => {
    const api = installFakeApi({
      ...routes([apiKey()]),
      'DELETE /apikeys/1/': () => Response.json(apiKey({ status: 'revoked', revoked_at: '2025-03-03T00:00:00Z' })),
    });
    const user = userEvent.setup();
    renderScreen(<DevelopersPage />);
    await user.click(await screen.findByRole('button', { name: 'Revoke Website widget' }));
    const confirm = await screen.findByRole('dialog', { name: 'Revoke “Website widget”?' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(api.find('DELETE', '/apikeys/1/')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Revoke Website widget' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Revoke “Website widget”?' })).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('The API key was revoked.')).toBeInTheDocument();
    expect(api.find('DELETE', '/apikeys/1/')).toHaveLength(1);
  });

  it('edits a key with its chatbots and expiry filled in, and says when the key was revoked meanwhile', async () => {
    const api = installFakeApi({
      ...routes([apiKey({ expires_at: '2099-05-01T12:00:00Z' })]),
      'PATCH /apikeys/1/': () => Response.json({ code: 'conflict', message: 'revoked' }, { status: 409 }),
    });
    const user = userEvent.setup();
    renderScreen(<DevelopersPage />);
    await user.click(await screen.findByRole('button', { name: 'Edit Website widget' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit API key' });
    expect(within(dialog).getByTestId('key-name')).toHaveValue('Website widget');
    expect(within(dialog).getByTestId('key-expiry')).toHaveValue('2099-05-01');
    await user.clear(within(dialog).getByTestId('key-name'));
    await user.type(within(dialog).getByTestId('key-name'), 'Renamed');
    await user.click(within(dialog).getByTestId('save-key'));
    expect(await screen.findByText('This key has been revoked and can no longer be changed.')).toBeInTheDocument();
    const [patch] = api.find('PATCH', '/apikeys/1/');
    expect(await patch!.json()).toMatchObject({ name: 'Renamed', chatbot_ids: [5] });
  });
});
