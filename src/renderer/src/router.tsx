import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate } from 'react-router-dom';
import { SessionRoot } from './app/SessionRoot';
import { RequireAuth } from './app/RequireAuth';
import SignInPage from './features/auth/SignInPage';
import { PUBLIC_CHATBOT_ROUTE, SHARED_SESSION_ROUTE } from '../../shared/domain/sharing';
import { SSO_WEB_CALLBACK_PATH } from '../../shared/domain/sso';
import { SESSION_PRINT_ROUTE } from '../../shared/domain/sessionTransfer';
import { loadScreenModule } from './app/screenModule';

/**
 * A route whose component arrives in its own chunk when the route is first matched, so the
 * sign-in page does not wait for the dashboard, the chat (markdown, highlighting) or the admin
 * console (rich editor). `npm run bench:bundle` prints what each route loads.
 */
const lazyComponent =
  <Module,>(load: () => Promise<Module>, pick: (module: Module) => ComponentType) =>
  async () => ({ Component: pick(await loadScreenModule(load)) });

const chatPage = lazyComponent(
  () => import('./features/chat/ChatPage'),
  (module) => module.default,
);

/** Routes of spec §2. */
export const routes = [
  {
    element: <SessionRoot />,
    children: [
      { path: '/auth', element: <SignInPage /> },
      {
        path: SSO_WEB_CALLBACK_PATH,
        lazy: lazyComponent(
          () => import('./features/sso/SsoCallbackPage'),
          (module) => module.default,
        ),
      },
      {
        path: '/auth/invitation/:hash',
        lazy: lazyComponent(
          () => import('./features/account/InvitationPage'),
          (module) => module.default,
        ),
      },
      {
        path: '/auth/sign-up',
        lazy: lazyComponent(
          () => import('./features/signup/SignUpPage'),
          (module) => module.default,
        ),
      },
      // Forgot password and the mailed link's page (docs/decisions/0038-password-reset-and-change.md).
      {
        path: '/auth/forgot',
        lazy: lazyComponent(
          () => import('./features/account/ForgotPasswordPage'),
          (module) => module.default,
        ),
      },
      {
        path: '/auth/reset/:token',
        lazy: lazyComponent(
          () => import('./features/account/ResetPasswordPage'),
          (module) => module.default,
        ),
      },
      // Desktop only: server and workspace (main opens it on first run).
      {
        path: '/setup',
        lazy: lazyComponent(
          () => import('./features/desktop/ServerSetupPage'),
          (module) => module.default,
        ),
      },
      // A shared session: no sign-in (spec §6 public paths).
      {
        path: `${SHARED_SESSION_ROUTE}/:hash`,
        lazy: lazyComponent(
          () => import('./features/sharing/PublicSessionPage'),
          (module) => module.default,
        ),
      },
      // A public chatbot's page and a visitor's chat there (one route: the chat survives its first answer's new address).
      {
        path: `${PUBLIC_CHATBOT_ROUTE}/:hash/:sessionHash?`,
        lazy: lazyComponent(
          () => import('./features/sharing/PublicChatbotPage'),
          (module) => module.default,
        ),
      },
      {
        element: <RequireAuth />,
        children: [
          // A chat's print view: outside the dashboard's frame, so the page prints the chat alone.
          {
            path: `${SESSION_PRINT_ROUTE}/:sessionHashId`,
            lazy: lazyComponent(
              () => import('./features/chat/print/ChatPrintPage'),
              (module) => module.default,
            ),
          },
          {
            path: '/dashboard',
            lazy: lazyComponent(
              () => import('./features/dashboard/DashboardLayout'),
              (module) => module.DashboardLayout,
            ),
            children: [
              { index: true, element: <Navigate to="chat" replace /> },
              { path: 'chat', lazy: chatPage },
              { path: 'chat/:chatbotId', lazy: chatPage },
              { path: 'chat/:chatbotId/:sessionHashId', lazy: chatPage },
              {
                path: 'studio',
                lazy: lazyComponent(
                  () => import('./features/studio/StudioPage'),
                  (module) => module.default,
                ),
              },
              {
                path: 'studio/:chatbotId',
                lazy: lazyComponent(
                  () => import('./features/studio/StudioEditorPage'),
                  (module) => module.default,
                ),
              },
              {
                path: 'store',
                lazy: lazyComponent(
                  () => import('./features/store/StorePage'),
                  (module) => module.default,
                ),
              },
              {
                path: 'plans',
                lazy: lazyComponent(
                  () => import('./features/billing/PlansPage'),
                  (module) => module.default,
                ),
              },
              {
                path: 'credits',
                lazy: lazyComponent(
                  () => import('./features/credits/CreditsPage'),
                  (module) => module.default,
                ),
              },
              {
                path: 'my-page',
                lazy: lazyComponent(
                  () => import('./features/account/MyPage'),
                  (module) => module.default,
                ),
              },
              {
                path: 'developers',
                lazy: lazyComponent(
                  () => import('./features/developers/DevelopersPage'),
                  (module) => module.default,
                ),
              },
            ],
          },
          {
            path: '/admin',
            lazy: lazyComponent(
              () => import('./features/admin/AdminLayout'),
              (module) => module.AdminLayout,
            ),
            children: [
              { index: true, element: <Navigate to="dashboard" replace /> },
              {
                path: 'dashboard',
                lazy: lazyComponent(
                  () => import('./features/admin/dashboard/AdminDashboardPage'),
                  (module) => module.default,
                ),
              },
              {
                path: 'credits',
                lazy: lazyComponent(
                  () => import('./features/admin/credits/AdminCreditsPage'),
                  (module) => module.default,
                ),
              },
              {
                path: 'announcements',
                lazy: lazyComponent(
                  () => import('./features/admin/announcements/AnnouncementsPage'),
                  (module) => module.default,
                ),
              },
              {
                path: 'settings',
                lazy: lazyComponent(
                  () => import('./features/admin/settings/TenantSettingsPage'),
                  (module) => module.default,
                ),
              },
              {
                path: 'sign-up',
                lazy: lazyComponent(
                  () => import('./features/admin/signup/SignupSettingsPage'),
                  (module) => module.default,
                ),
              },
              {
                path: 'sso',
                lazy: lazyComponent(
                  () => import('./features/admin/sso/SsoPlatformsPage'),
                  (module) => module.default,
                ),
              },
              {
                path: 'mcp-servers',
                lazy: lazyComponent(
                  () => import('./features/admin/mcp/McpServersPage'),
                  (module) => module.default,
                ),
              },
              {
                path: 'restricted-words',
                lazy: lazyComponent(
                  () => import('./features/admin/security/SecurityPage'),
                  (module) => module.default,
                ),
              },
              {
                path: 'members',
                lazy: lazyComponent(
                  () => import('./features/admin/members/MembersPage'),
                  (module) => module.default,
                ),
              },
              {
                path: 'requests',
                lazy: lazyComponent(
                  () => import('./features/admin/members/RequestsPage'),
                  (module) => module.default,
                ),
              },
              {
                path: 'chatbots',
                lazy: lazyComponent(
                  () => import('./features/admin/chatbots/AdminChatbotsPage'),
                  (module) => module.default,
                ),
              },
              {
                path: 'default-chatbots',
                lazy: lazyComponent(
                  () => import('./features/admin/defaultChatbots/DefaultChatbotsPage'),
                  (module) => module.default,
                ),
              },
              {
                path: 'models',
                lazy: lazyComponent(
                  () => import('./features/admin/models/ModelPermissionsPage'),
                  (module) => module.default,
                ),
              },
              {
                path: 'feedback',
                lazy: lazyComponent(
                  () => import('./features/admin/feedback/FeedbackPage'),
                  (module) => module.default,
                ),
              },
              {
                path: 'audit-log',
                lazy: lazyComponent(
                  () => import('./features/admin/audit/AuditLogPage'),
                  (module) => module.default,
                ),
              },
              {
                path: 'groups',
                lazy: lazyComponent(
                  () => import('./features/admin/groups/GroupsPage'),
                  (module) => module.default,
                ),
              },
              {
                path: 'prompts',
                lazy: lazyComponent(
                  () => import('./features/admin/prompts/PromptsPage'),
                  (module) => module.default,
                ),
              },
              {
                path: 'invitations',
                lazy: lazyComponent(
                  () => import('./features/admin/invitations/InvitationsPage'),
                  (module) => module.default,
                ),
              },
              {
                path: 'sso-whitelist',
                lazy: lazyComponent(
                  () => import('./features/admin/ssoWhitelist/SsoWhitelistPage'),
                  (module) => module.default,
                ),
              },
              {
                path: 'members/upload',
                lazy: lazyComponent(
                  () => import('./features/admin/memberTransfer/MemberUploadPage'),
                  (module) => module.default,
                ),
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
