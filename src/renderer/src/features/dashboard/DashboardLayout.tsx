import { Outlet } from 'react-router-dom';
import { SideNavShell } from '../../components/SideNavShell';
import { AnnouncementPopup } from '../announcements/AnnouncementPopup';
import { NavBar, TenantLogo } from './NavBar';

/**
 * Navigation bar beside the page (a drawer on small screens); the bar starts the dashboard
 * queries (chatbots, sessions). The active announcement pops up over any dashboard page.
 */
export function DashboardLayout() {
  return (
    <SideNavShell navbar={<NavBar />} brand={<TenantLogo />} mainProps={{ h: '100dvh', style: { display: 'flex', flexDirection: 'column', overflow: 'auto' } }}>
      <Outlet />
      <AnnouncementPopup />
    </SideNavShell>
  );
}
