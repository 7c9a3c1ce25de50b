import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { announcementsApi, tenantsApi } from '../../../../shared/api';
import { endpointKey } from '../../api/endpointHooks';
import { setPlatformForTests } from '../../platform';
import { installFakeApi } from '../../test/fakeApi';
import { renderScreen } from '../../test/render';
import { AnnouncementPopup } from './AnnouncementPopup';

const tenant = { subdomain: 'demo', tenant_name: 'Demo Workspace', logo_url: null, plan: { is_low_llm_free: false } };

function announcement(id: number, content: string) {
  return { id, content, is_active: true, created_at: '2025-03-07T09:00:00Z' };
}

/** Serves `current` as the active announcement; the test may swap it between renders. */
function serveActive(initial: ReturnType<typeof announcement> | null) {
  const served = { current: initial };
  installFakeApi({
    'GET /tenants/': () => Response.json(tenant),
    'GET /announcements/active/': () => Response.json({ announcement: served.current }),
  });
  return served;
}

/** A fresh app start in the same browser session: new component tree and query cache. */
function openApp() {
  return renderScreen(<AnnouncementPopup />);
}

/** Opens the app, lets both queries answer, then tells whether the popup is up. */
async function popupAfterLoad() {
  const { queryClient } = openApp();
  await waitFor(() => {
    expect(queryClient.getQueryState(endpointKey(tenantsApi.getTenant))?.status).toBe('success');
    expect(queryClient.getQueryState(endpointKey(announcementsApi.getActiveAnnouncement))?.status).toBe('success');
  });
  await new Promise((resolve) => setTimeout(resolve, 50));
  return screen.queryByRole('dialog', { name: 'Announcement' });
}

afterEach(() => {
  setPlatformForTests(null);
  localStorage.clear();
  sessionStorage.clear();
});

describe('announcement popup', () => {
  it('shows the active announcement as sanitized markdown with its date', async () => {
    serveActive(announcement(1, '## Maintenance\nOn **Sunday**.<img src=x onerror="alert(1)">'));
    openApp();
    const dialog = await screen.findByRole('dialog', { name: 'Announcement' });
    expect(within(dialog).getByRole('heading', { level: 2, name: 'Maintenance' })).toBeInTheDocument();
    expect(within(dialog).getByText('Sunday').tagName).toBe('STRONG');
    expect(dialog.querySelector('[onerror]')).toBeNull();
    expect(within(dialog).getByText('Mar 7, 2025')).toBeInTheDocument();
  });

  it('closed without the box, it stays away for this browser session only', async () => {
    serveActive(announcement(1, 'Welcome to the new workspace'));
    const user = userEvent.setup();
    const first = openApp();
    const dialog = await screen.findByRole('dialog', { name: 'Announcement' });
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    first.unmount();

    expect(await popupAfterLoad()).toBeNull();

    // The browser session ends (the app is opened again later): it is back.
    sessionStorage.clear();
    openApp();
    expect(await screen.findByRole('dialog', { name: 'Announcement' })).toBeInTheDocument();
  });

  it('closed with "Don\'t show this again", it does not come back in a later session', async () => {
    serveActive(announcement(1, 'Welcome to the new workspace'));
    const user = userEvent.setup();
    const first = openApp();
    const dialog = await screen.findByRole('dialog', { name: 'Announcement' });
    await user.click(within(dialog).getByRole('checkbox', { name: "Don't show this again" }));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    first.unmount();

    sessionStorage.clear();
    expect(await popupAfterLoad()).toBeNull();
  });

  it('a different active announcement shows even after the previous one was dismissed for good', async () => {
    const served = serveActive(announcement(1, 'Old news'));
    const user = userEvent.setup();
    const first = openApp();
    const dialog = await screen.findByRole('dialog', { name: 'Announcement' });
    await user.click(within(dialog).getByRole('checkbox', { name: "Don't show this again" }));
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    first.unmount();

    served.current = announcement(2, 'Fresh news');
    openApp();
    const next = await screen.findByRole('dialog', { name: 'Announcement' });
    expect(within(next).getByText('Fresh news')).toBeInTheDocument();
  });

  it('shows nothing when no announcement is active', async () => {
    serveActive(null);
    expect(await popupAfterLoad()).toBeNull();
  });
});
