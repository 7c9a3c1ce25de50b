import { AppShell } from '@mantine/core';
import { Outlet } from 'react-router-dom';
import { NAV_BAR_WIDTH_PX } from '../../../../shared/domain/constants';
import { MAIN_CONTENT_ID } from '../../components/mainContent';
import { AnnouncementPopup } from '../announcements/AnnouncementPopup';
import { NavBar } from './NavBar';

/**
 * Fixed navigation bar beside the page; the bar starts the dashboard queries (chatbots, sessions).
 * The active announcement pops up over any dashboard page.
 */
export function DashboardLayout() {
  return (
    <AppShell navbar={{ width: NAV_BAR_WIDTH_PX, breakpoint: 0 }} padding={0}>
      <NavBar />
      <AppShell.Main id={MAIN_CONTENT_ID} tabIndex={-1} h="100dvh" style={{ display: 'flex', flexDirection: 'column', overflow: 'auto' }}>
        <Outlet />
      </AppShell.Main>
      <AnnouncementPopup />
    </AppShell>
  );
}
