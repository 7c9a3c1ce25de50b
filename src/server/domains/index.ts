import { announcementRoutes } from './announcements/routes';
import { apiKeyRoutes } from './apiKeys/routes';
import { auditLogRoutes } from './auditLog/routes';
import { passwordRoutes } from './auth/passwordRoutes';
import { authRoutes } from './auth/routes';
import { billingRoutes } from './billing/routes';
import { chatRoutes } from './chat/routes';
import { adminChatbotRoutes } from './chatbots/adminRoutes';
import { recentChatbotRoutes } from './chatbots/recentRoutes';
import { catalogRoutes } from './chatbots/routes';
import { creditRoutes } from './credits/routes';
import { errorLogRoutes } from './errorLog/routes';
import { feedbackRoutes } from './feedback/routes';
import { fileRoutes } from './files/routes';
import { inquiryRoutes } from './inquiries/routes';
import { invitationRoutes } from './invitations/routes';
import { adminMemberGroupRoutes } from './memberGroups/adminRoutes';
import { mcpServerRoutes } from './mcpServers/routes';
import { memberGroupRoutes } from './memberGroups/routes';
import { adminMemberRoutes } from './members/adminRoutes';
import { memberRoutes } from './members/routes';
import { memberTransferRoutes } from './members/transferRoutes';
import { modelPermissionRoutes } from './modelPermissions/routes';
import { openAiRoutes } from './openai/routes';
import { promptRoutes } from './prompts/routes';
import { publicSessionRoutes } from './publicSessions/routes';
import { securityRoutes } from './security/routes';
import { sessionRoutes } from './sessions/routes';
import { signupRoutes } from './signup/routes';
import { ssoRoutes } from './sso/routes';
import { ssoWhitelistRoutes } from './sso/whitelistRoutes';
import { studioRoutes } from './studio/routes';
import { taskModeRoutes } from './taskModes/routes';
import { taskRoutes } from './tasks/routes';
import { tenantSettingsRoutes } from './tenantSettings/routes';

/**
 * Every domain's routes, registered by buildApp in this order under the API prefix. The order is
 * the OpenAPI document's (and so the API reference's): a new domain goes at the end.
 */
export const domainPlugins = [
  authRoutes,
  passwordRoutes,
  memberRoutes,
  memberGroupRoutes,
  catalogRoutes,
  sessionRoutes,
  publicSessionRoutes,
  chatRoutes,
  taskModeRoutes,
  announcementRoutes,
  errorLogRoutes,
  taskRoutes,
  securityRoutes,
  fileRoutes,
  inquiryRoutes,
  modelPermissionRoutes,
  adminChatbotRoutes,
  creditRoutes,
  adminMemberGroupRoutes,
  ssoWhitelistRoutes,
  recentChatbotRoutes,
  apiKeyRoutes,
  openAiRoutes,
  studioRoutes,
  signupRoutes,
  adminMemberRoutes,
  ssoRoutes,
  invitationRoutes,
  tenantSettingsRoutes,
  auditLogRoutes,
  billingRoutes,
  memberTransferRoutes,
  feedbackRoutes,
  promptRoutes,
  mcpServerRoutes,
];
