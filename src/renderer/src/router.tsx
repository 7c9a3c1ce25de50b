import { createBrowserRouter, Navigate } from 'react-router-dom';
import { SessionRoot } from './app/SessionRoot';
import { RequireAuth } from './app/RequireAuth';
import SignInPage from './features/auth/SignInPage';
import { DashboardLayout } from './features/dashboard/DashboardLayout';
import ChatPage from './features/chat/ChatPage';
import StudioPage from './features/studio/StudioPage';
import StorePage from './features/store/StorePage';
import DevelopersPage from './features/developers/DevelopersPage';
import { AdminLayout } from './features/admin/AdminLayout';

/** Routes of spec §2. */
export const routes = [
  {
    element: <SessionRoot />,
    children: [
      { path: '/auth', element: <SignInPage /> },
      // Desktop only: server and workspace (main opens it on first run).
      { path: '/setup', lazy: async () => ({ Component: (await import('./features/desktop/ServerSetupPage')).default }) },
      {
        element: <RequireAuth />,
        children: [
          {
            path: '/dashboard',
            element: <DashboardLayout />,
            children: [
              { index: true, element: <Navigate to="chat" replace /> },
              { path: 'chat', element: <ChatPage /> },
              { path: 'chat/:chatbotId', element: <ChatPage /> },
              { path: 'chat/:chatbotId/:sessionHashId', element: <ChatPage /> },
              { path: 'studio', element: <StudioPage /> },
              { path: 'store', element: <StorePage /> },
              { path: 'developers', element: <DevelopersPage /> },
            ],
          },
          {
            path: '/admin',
            element: <AdminLayout />,
            children: [
              { index: true, element: <Navigate to="announcements" replace /> },
              {
                path: 'announcements',
                // The editor (tiptap) is only needed by admins: load it with the page.
                lazy: async () => ({ Component: (await import('./features/admin/announcements/AnnouncementsPage')).default }),
              },
            ],
          },
        ],
      },
      { path: '*', element: <Navigate to="/dashboard/chat" replace /> },
    ],
  },
];

export const createAppRouter = () => createBrowserRouter(routes);
