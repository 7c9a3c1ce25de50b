import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Session, SessionExport } from '../../../../shared/api';
import { setPlatformForTests } from '../../platform';
import { installFakeApi } from '../../test/fakeApi';
import { testToolCall } from '../../test/fixtures';
import { renderScreen } from '../../test/render';
import { ChatHeader } from './ChatHeader';
import ChatPrintPage from './print/ChatPrintPage';

const session: Session = {
  id: 1,
  hash_id: 'abc',
  chatbot_id: 5,
  chatbot: { id: 5 },
  title: '여행 계획: 부산',
  is_public: false,
  creator_name: 'Ada',
  last_chat_at: null,
  created_at: '2025-01-01T00:00:00Z',
};

const exported: SessionExport = {
  version: 1,
  exported_at: '2026-03-04T05:06:00.000Z',
  title: 'Trip plans',
  chatbot: { id: 5, name: 'Helper' },
  messages: [
    {
      speaker: 'member',
      speaker_name: 'Ada',
      created_at: '2026-03-04T05:00:00.000Z',
      text: 'Where **now**?',
      attachments: [{ name: 'map.png', type: 'image/png' }],
      citations: [],
      tool_calls: [],
      interrupted: null,
      imported_at: null,
    },
    {
      speaker: 'chatbot',
      speaker_name: 'Helper',
      created_at: '2026-03-04T05:01:00.000Z',
      text: 'Busan.',
      attachments: [],
      citations: [
        { kind: 'web', url: 'https://example.test/busan', title: 'Busan guide' },
        { kind: 'web', url: 'javascript:alert(1)', title: 'Not a page' },
      ],
      tool_calls: [
        testToolCall({ result: '<b>14:00</b>' }),
        testToolCall({
          id: 'call-2',
          tool_id: 4,
          name: 'weather',
          server_name: '',
          arguments: {},
          status: 'timeout',
          result: '',
          duration_ms: null,
          text_offset: 6,
        }),
      ],
      interrupted: 'stopped',
      imported_at: '2026-03-05T00:00:00.000Z',
    },
  ],
};

const emptyList = () => Response.json({ items: [], total_items: 0, total_pages: 0, page: 1, page_size: 30 });

afterEach(() => {
  setPlatformForTests(null);
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

async function openMenu() {
  const user = userEvent.setup();
  const view = renderScreen(<ChatHeader chatbot={undefined} session={session} hasSession onNewSession={() => undefined} />, {
    route: '/dashboard/chat/5/abc',
    path: '/dashboard/chat/:chatbotId/:sessionHashId',
  });
  await user.click(screen.getByRole('button', { name: 'Export' }));
  return { user, ...view, menu: await screen.findByRole('menu') };
}

describe('the chat header’s Export menu (beside rename, share and delete)', () => {
  it('offers Markdown, JSON and the print view', async () => {
    installFakeApi({ 'GET /chatbots/': emptyList });
    const { menu } = await openMenu();
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Markdown (.md)', 'JSON (.json, can be imported)', 'Print or save as PDF']);
  });

  it.each([
    ['Markdown (.md)', 'markdown', '여행 계획 부산.md'],
    ['JSON (.json, can be imported)', 'json', '여행 계획 부산.json'],
  ])('%s downloads the chat under its title', async (label, format, fileName) => {
    const api = installFakeApi({
      'GET /chatbots/': emptyList,
      'GET /sessions/abc/export/': () => new Response('# chat', { headers: { 'content-type': 'text/markdown' } }),
    });
    const names: string[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:export'), revokeObjectURL: vi.fn() }));
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    const { user, menu } = await openMenu();
    await user.click(within(menu).getByRole('menuitem', { name: label }));
    await vi.waitFor(() => expect(names).toEqual([fileName]));
    expect(new URL(api.find('GET', '/sessions/abc/export/')[0]!.url).searchParams.get('format')).toBe(format);
  });

  it('opens the print view of the chat', async () => {
    installFakeApi({ 'GET /chatbots/': emptyList });
    const { user, menu, router } = await openMenu();
    await user.click(within(menu).getByRole('menuitem', { name: 'Print or save as PDF' }));
    expect(router.state.location.pathname).toBe('/print/chats/abc');
  });

  it('says so when the download fails', async () => {
    installFakeApi({ 'GET /chatbots/': emptyList });
    const { user, menu } = await openMenu();
    await user.click(within(menu).getByRole('menuitem', { name: 'Markdown (.md)' }));
    expect(await screen.findByText('This chat no longer exists.')).toBeInTheDocument();
  });
});

describe('the print view', () => {
  const renderPrint = () => renderScreen(<ChatPrintPage />, { route: '/print/chats/abc', path: '/print/chats/:sessionHashId' });

  it('shows each message with its speaker, time and attachments, and the sources as numbered footnotes', async () => {
    const api = installFakeApi({ 'GET /sessions/abc/export/': () => Response.json(exported) });
    renderPrint();
    expect(await screen.findByRole('heading', { level: 1, name: 'Trip plans' })).toBeInTheDocument();
    expect(new URL(api.find('GET', '/sessions/abc/export/')[0]!.url).searchParams.get('format')).toBe('json');
    const [question, answer] = screen.getAllByTestId('print-message');
    expect(within(question!).getByTestId('print-speaker')).toHaveTextContent('Ada');
    expect(within(question!).getByText('now').tagName).toBe('STRONG');
    expect(within(question!).getByTestId('print-attachments')).toHaveTextContent('Attachments: map.png');
    expect(within(question!).getByText((_, node) => node?.tagName === 'TIME')).toHaveAttribute('dateTime', '2026-03-04T05:00:00.000Z');
    expect(within(answer!).getByText('Imported')).toBeInTheDocument();
    expect(within(answer!).getByText('Stopped')).toBeInTheDocument();
    expect(within(answer!).getByRole('link', { name: 'Source 2' })).toHaveAttribute('href', '#note-2');
    // The tools it called, their words as plain text.
    const tools = within(answer!).getByTestId('print-tool-calls');
    expect(tools).toHaveTextContent('Used current_time · From Demo tools · 1.2 s');
    expect(tools).toHaveTextContent('Arguments: {"timezone":"Asia/Seoul"} Result: <b>14:00</b>');
    expect(tools.querySelector('b')).toBeNull();
    expect(tools).toHaveTextContent('Used weather · Timed out');
    expect(within(question!).queryByTestId('print-tool-calls')).toBeNull();
    const notes = screen.getByTestId('print-notes');
    expect(within(notes).getByRole('link', { name: 'Busan guide' })).toHaveAttribute('href', 'https://example.test/busan');
    // A source that is not a web page is named, never linked.
    expect(within(notes).getByText('Not a page').closest('a')).toBeNull();
  });

  it('offers the browser’s print dialog', async () => {
    installFakeApi({ 'GET /sessions/abc/export/': () => Response.json(exported) });
    const print = vi.fn();
    vi.stubGlobal('print', print);
    const user = userEvent.setup();
    renderPrint();
    await screen.findByRole('heading', { level: 1, name: 'Trip plans' });
    await user.click(screen.getByRole('button', { name: 'Print or save as PDF' }));
    expect(print).toHaveBeenCalledTimes(1);
  });

  it('says when the chat cannot be loaded (someone else’s, deleted)', async () => {
    installFakeApi({});
    renderPrint();
    expect(await screen.findByRole('alert')).toHaveTextContent('This chat could not be loaded.');
    expect(screen.getByRole('button', { name: 'Print or save as PDF' })).toBeDisabled();
  });
});
