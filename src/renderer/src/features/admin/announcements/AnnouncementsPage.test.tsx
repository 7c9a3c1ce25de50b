import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { setPlatformForTests } from '../../../platform';
import { installFakeApi, page } from '../../../test/fakeApi';
import { renderScreen } from '../../../test/render';
import AnnouncementsPage from './AnnouncementsPage';

afterEach(() => setPlatformForTests(null));

const announcement = (id: number, content: string, isActive: boolean) => ({ id, content, is_active: isActive, created_at: '2025-03-07T10:00:00Z' });
const serverError = () => Response.json({ code: 'internal_error', message: 'Server error' }, { status: 500 });
/** Cards appear after the skeleton's 2000 ms minimum. */
const afterSkeleton = { timeout: 4000 };

describe('announcements page', () => {
  it('tells the admin when the list cannot be loaded (announcements_page_error)', async () => {
    installFakeApi({ 'GET /admin/announcements/': serverError, 'POST /log-error/': () => Response.json({ ok: true }) });
    renderScreen(<AnnouncementsPage />);
    expect(await screen.findByText('The announcements could not be loaded. Please try again.')).toBeInTheDocument();
  });

  it('renders cards with date and markdown, and a failed switch shows announcement_update_failed', async () => {
    installFakeApi({
      'GET /admin/announcements/': () => Response.json(page([announcement(1, '## Hello\n\n**Bold** news', true)])),
      'PATCH /admin/announcements/1/': serverError,
      'POST /log-error/': () => Response.json({ ok: true }),
    });
    const user = userEvent.setup();
    renderScreen(<AnnouncementsPage />);

    const card = await screen.findByTestId('announcement-card', {}, afterSkeleton);
    expect(within(card).getByRole('heading', { level: 2, name: 'Hello' })).toBeInTheDocument();
    expect(within(card).getByText('Bold').tagName).toBe('STRONG');
    expect(within(card).getByTestId('announcement-date')).toHaveTextContent('Mar 7, 2025');
    expect(screen.queryByRole('navigation', { name: 'Pages' })).not.toBeInTheDocument(); // one page: no pagination

    await user.click(within(card).getByRole('switch'));
    expect(await screen.findByText('The announcement could not be updated.')).toBeInTheDocument();
  });

  it('a failed delete shows announcement_delete_failed and keeps the card', async () => {
    installFakeApi({
      'GET /admin/announcements/': () => Response.json(page([announcement(2, 'Stay', false)])),
      'DELETE /admin/announcements/2/': () => Response.json({ code: 'not_found', message: 'gone' }, { status: 404 }),
    });
    const user = userEvent.setup();
    renderScreen(<AnnouncementsPage />);

    const card = await screen.findByTestId('announcement-card', {}, afterSkeleton);
    await user.click(within(card).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this announcement?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('The announcement could not be deleted.')).toBeInTheDocument();
    expect(screen.getByText('Stay')).toBeInTheDocument();
  });

  it('shows pagination only when there is more than one page', async () => {
    installFakeApi({ 'GET /admin/announcements/': () => Response.json(page([announcement(3, 'First page', false)], 1, 3)) });
    renderScreen(<AnnouncementsPage />);
    await screen.findByTestId('announcement-card', {}, afterSkeleton);
    expect(screen.getByRole('button', { name: 'Page 3' })).toBeInTheDocument();
  });
  it('refuses an empty announcement: the error sits under the editor, tied to it, and the editor has the focus', async () => {
    const api = installFakeApi({
      'GET /admin/announcements/': () => Response.json(page([])),
      'POST /admin/announcements/': () => Response.json(announcement(9, 'x', true)),
    });
    const user = userEvent.setup();
    renderScreen(<AnnouncementsPage />);
    await user.click(await screen.findByRole('button', { name: 'New announcement' }));
    const dialog = await screen.findByRole('dialog', { name: 'New announcement' });
    const editor = await within(dialog).findByRole('textbox', { name: 'Announcement text' }); // the editor loads on demand
    expect(editor).not.toHaveAttribute('aria-invalid');

    await user.click(within(dialog).getByRole('button', { name: 'Create' }));

    const error = await within(dialog).findByText('This is a required field.');
    await waitFor(() => expect(editor).toHaveAttribute('aria-invalid', 'true'));
    expect(editor).toHaveAttribute('aria-describedby', error.id);
    expect(editor).toHaveFocus();
    expect(within(dialog).getByRole('switch', { name: 'Set as active' })).toBeChecked();
    expect(api.find('POST', '/admin/announcements/')).toHaveLength(0);
  });
});
