import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { setPlatformForTests } from '../../platform';
import { installFakeApi } from '../../test/fakeApi';
import { renderScreen } from '../../test/render';
import { ImportSessionButton } from './ImportSessionButton';

const document = { version: 1, title: 'Trip', chatbot: { id: 5, name: 'Helper' }, messages: [] };
const created = {
  id: 9,
  hash_id: 'new',
  chatbot_id: 5,
  chatbot: { id: 5 },
  title: 'Trip',
  is_public: false,
  creator_name: 'Ada',
  last_chat_at: null,
  created_at: '2026-01-01T00:00:00Z',
};

afterEach(() => setPlatformForTests(null));

async function importFile(contents: string) {
  const user = userEvent.setup();
  const view = renderScreen(<ImportSessionButton />);
  const input = view.container.ownerDocument.querySelector<HTMLInputElement>('input[type=file]')!;
  expect(input.accept).toBe('application/json,.json');
  await user.upload(input, new File([contents], 'chat.json', { type: 'application/json' }));
  return view;
}

describe('My chats’ Import button', () => {
  it('sends the chosen export and opens the new chat', async () => {
    const api = installFakeApi({ 'POST /sessions/import/': () => Response.json(created) });
    const { router } = await importFile(JSON.stringify(document));
    expect(await screen.findByText('The chat was imported.')).toBeInTheDocument();
    expect(await api.find('POST', '/sessions/import/')[0]!.json()).toEqual(document);
    expect(router.state.location.pathname).toBe('/dashboard/chat/5/new');
  });

  it('says a file that is not JSON is not a chat export, and sends nothing', async () => {
    const api = installFakeApi({});
    await importFile('# a markdown export');
    expect(await screen.findByText('This file is not a chat exported as JSON.')).toBeInTheDocument();
    expect(api.requests).toHaveLength(0);
  });

  it.each([
    [403, 'chatbot_not_usable', "You can't chat with the chatbot this chat was exported from."],
    [400, 'validation_error', 'This chat export is damaged or from a newer version.'],
  ])('says why the server refused it (%s %s)', async (status, code, message) => {
    installFakeApi({ 'POST /sessions/import/': () => Response.json({ code, message: 'refused' }, { status }) });
    await importFile(JSON.stringify(document));
    expect(await screen.findByText(message)).toBeInTheDocument();
  });
});
