import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { setPlatformForTests } from '../../../platform';
import { installFakeApi, page } from '../../../test/fakeApi';
import { LIST_SEARCH_DELAY_MS } from '../../../components/list/useListState';
import { renderScreen } from '../../../test/render';
import AuditLogPage from './AuditLogPage';

afterEach(() => setPlatformForTests(null));

const actor = { id: 1, name: 'Demo Admin', email: 'admin@demo.test' };
const edited = {
  id: 7,
  action: 'announcement.update',
  actor,
  target_type: 'announcement',
  target_id: '12',
  changes: { content: { from: 'Maintenance tonight', to: 'Maintenance at 22:00' }, is_active: { from: false, to: true } },
  created_at: '2026-11-20T09:30:00Z',
};
const word = {
  id: 6,
  action: 'restricted_word.create',
  actor: { ...actor, id: null },
  target_type: 'restricted_word',
  target_id: '3',
  changes: { word: 'Codename' },
  created_at: '2026-11-19T08:00:00Z',
};

const queryOf = (request: Request) => new URL(request.url).searchParams;

describe('audit log page', () => {
  it('shows who did what, a summary of the change and, expanded, each field from → to', async () => {
    installFakeApi({ 'GET /admin/audit-log/': () => Response.json(page([edited, word])) });
    const user = userEvent.setup();
    renderScreen(<AuditLogPage />);
    // The first render of the file also loads the translations: more than the default second.
    const rows = await screen.findAllByTestId('audit-row', {}, { timeout: 10_000 });
    expect(rows).toHaveLength(2);
    const first = within(rows[0]!);
    expect(first.getByText('Announcement edited')).toBeInTheDocument();
    expect(first.getByText('Demo Admin')).toBeInTheDocument();
    expect(first.getByText('#12')).toBeInTheDocument();
    expect(first.getByText('Changed content, is active')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Codename')).toBeInTheDocument();
    // The actor was deleted since: their name and email stay, marked.
    expect(within(rows[1]!).getByText(/former member/)).toBeInTheDocument();

    const toggle = first.getByRole('button', { name: 'Show details' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(first.getByRole('button', { name: 'Hide details' })).toHaveAttribute('aria-expanded', 'true');
    const details = screen.getByRole('table', { name: 'Details of Announcement edited' });
    const contentRow = within(details).getByText('content').closest('tr')!;
    expect(within(contentRow).getByText('Maintenance tonight')).toBeInTheDocument();
    expect(within(contentRow).getByText('Maintenance at 22:00')).toBeInTheDocument();
    const activeRow = within(details).getByText('is active').closest('tr')!;
    expect(within(activeRow).getByText('No')).toBeInTheDocument();
    expect(within(activeRow).getByText('Yes')).toBeInTheDocument();
  });

  it('keeps the filters in the URL and sends them: action, local day range, search', async () => {
    const api = installFakeApi({ 'GET /admin/audit-log/': () => Response.json(page([edited])) });
    const user = userEvent.setup();
    const { router } = renderScreen(<AuditLogPage />, { route: '/?action=announcement.update&from=2026-11-01&to=2026-11-20' });
    await screen.findAllByTestId('audit-row');
    const sent = queryOf(api.requests.at(-1)!);
    expect(sent.get('action')).toBe('announcement.update');
    expect(sent.get('from')).toBe(new Date('2026-11-01T00:00:00').toISOString());
    // `to` is the day after the last day, so the whole last day is in.
    expect(sent.get('to')).toBe(new Date('2026-11-21T00:00:00').toISOString());
    expect(screen.getByDisplayValue('Announcement edited')).toBeInTheDocument();

    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'admin@');
    await waitFor(() => expect(router.state.location.search).toContain('search=admin%40'));
    await waitFor(() => expect(queryOf(api.requests.at(-1)!).get('search_term')).toBe('admin@'));

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(router.state.location.search).not.toContain('action='));
    await waitFor(() => expect([...queryOf(api.requests.at(-1)!).keys()].sort()).toEqual(['page', 'size']));
    // Past the search box's debounce, the cleared filters stay cleared.
    await new Promise((resolve) => setTimeout(resolve, LIST_SEARCH_DELAY_MS + 200));
    expect(router.state.location.search).not.toMatch(/action=|from=|to=|search=/);
    expect(screen.getByRole('searchbox', { name: 'Search' })).toHaveValue('');
  });

  it('says when nothing matches, and refuses a start after the end without sending it', async () => {
    const api = installFakeApi({ 'GET /admin/audit-log/': () => Response.json(page([])) });
    renderScreen(<AuditLogPage />, { route: '/?from=2026-11-20&to=2026-11-01' });
    expect(await screen.findByText('No entries match these filters.')).toBeInTheDocument();
    expect(screen.getByText('The start date must not be after the end date.')).toBeInTheDocument();
    expect(queryOf(api.requests.at(-1)!).has('to')).toBe(false);
  });

  it('shows the empty log, and an error with a retry', async () => {
    let fail = true;
    installFakeApi({
      'GET /admin/audit-log/': () => (fail ? Response.json({ code: 'internal', message: 'x' }, { status: 500 }) : Response.json(page([]))),
    });
    const user = userEvent.setup();
    renderScreen(<AuditLogPage />);
    expect(await screen.findByTestId('audit-error')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Nothing has been recorded yet.')).toBeInTheDocument();
  });

  it('pages through the log, the page in the URL', async () => {
    const api = installFakeApi({ 'GET /admin/audit-log/': (request) => Response.json(page([edited], Number(queryOf(request).get('page')), 3)) });
    const user = userEvent.setup();
    const { router } = renderScreen(<AuditLogPage />);
    await screen.findAllByTestId('audit-row');
    const pages = screen.getByRole('navigation', { name: 'Pages' });
    // Every control is named: the arrows too (axe's button-name rule).
    expect(within(pages).getByRole('button', { name: 'Previous page' })).toBeInTheDocument();
    expect(within(pages).getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
    await user.click(within(pages).getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(router.state.location.search).toContain('page=2'));
    await waitFor(() => expect(queryOf(api.requests.at(-1)!).get('page')).toBe('2'));
  });
  it('summarises announcements as plain text, personal-data settings per kind and a created group by its name', async () => {
    const announced = {
      ...edited,
      id: 8,
      action: 'announcement.create',
      changes: { content: '## Maintenance **tonight**\n\n- See [the status page](https://status.example)', is_active: true },
    };
    const pii = {
      ...edited,
      id: 9,
      action: 'pii_settings.update',
      target_type: 'pii_settings',
      target_id: null,
      changes: { phone: { from: 'off', to: 'mask' }, email: { from: 'off', to: 'block' } },
    };
    const group = {
      ...edited,
      id: 10,
      action: 'member_group.create',
      target_type: 'member_group',
      target_id: '4',
      changes: { ko_name: '영업팀', en_name: 'Sales' },
    };
    installFakeApi({ 'GET /admin/audit-log/': () => Response.json(page([announced, pii, group])) });
    renderScreen(<AuditLogPage />);
    const rows = await screen.findAllByTestId('audit-row', {}, { timeout: 10_000 });
    expect(within(rows[0]!).getByText('Maintenance tonight See the status page')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('phone: mask, email: block')).toBeInTheDocument();
    expect(within(rows[1]!).queryByText('block')).not.toBeInTheDocument();
    expect(within(rows[2]!).getByText('Sales')).toBeInTheDocument();
  });
});
