/**
 * Translation keys are typed from the English locale files (decision record 0077-typed-translation-keys):
 * `t('a.key')` with a key English does not have fails the type check. A new namespace adds its line here.
 */
import type account from './locales/en/account.json';
import type admin from './locales/en/admin.json';
import type adminCredits from './locales/en/adminCredits.json';
import type adminDashboard from './locales/en/adminDashboard.json';
import type adminGroups from './locales/en/adminGroups.json';
import type adminInvitations from './locales/en/adminInvitations.json';
import type adminMembers from './locales/en/adminMembers.json';
import type announcements from './locales/en/announcements.json';
import type audit from './locales/en/audit.json';
import type auth from './locales/en/auth.json';
import type billing from './locales/en/billing.json';
import type chat from './locales/en/chat.json';
import type chatExport from './locales/en/chatExport.json';
import type common from './locales/en/common.json';
import type contact from './locales/en/contact.json';
import type credits from './locales/en/credits.json';
import type creditsPage from './locales/en/creditsPage.json';
import type dashboard from './locales/en/dashboard.json';
import type defaultChatbots from './locales/en/defaultChatbots.json';
import type desktop from './locales/en/desktop.json';
import type developers from './locales/en/developers.json';
import type errors from './locales/en/errors.json';
import type feedback from './locales/en/feedback.json';
import type files from './locales/en/files.json';
import type memberTransfer from './locales/en/memberTransfer.json';
import type mcp from './locales/en/mcp.json';
import type models from './locales/en/models.json';
import type modes from './locales/en/modes.json';
import type prompts from './locales/en/prompts.json';
import type publishing from './locales/en/publishing.json';
import type security from './locales/en/security.json';
import type sharing from './locales/en/sharing.json';
import type signup from './locales/en/signup.json';
import type sources from './locales/en/sources.json';
import type sso from './locales/en/sso.json';
import type ssoWhitelist from './locales/en/ssoWhitelist.json';
import type store from './locales/en/store.json';
import type studio from './locales/en/studio.json';
import type tenantSettings from './locales/en/tenantSettings.json';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    // The values of a JSON import are typed `string`: there is no {{variable}} for the types to find.
    parseInterpolation: false;
    resources: {
      account: typeof account;
      admin: typeof admin;
      adminCredits: typeof adminCredits;
      adminDashboard: typeof adminDashboard;
      adminGroups: typeof adminGroups;
      adminInvitations: typeof adminInvitations;
      adminMembers: typeof adminMembers;
      announcements: typeof announcements;
      audit: typeof audit;
      auth: typeof auth;
      billing: typeof billing;
      chat: typeof chat;
      chatExport: typeof chatExport;
      common: typeof common;
      contact: typeof contact;
      credits: typeof credits;
      creditsPage: typeof creditsPage;
      dashboard: typeof dashboard;
      defaultChatbots: typeof defaultChatbots;
      desktop: typeof desktop;
      developers: typeof developers;
      errors: typeof errors;
      feedback: typeof feedback;
      files: typeof files;
      memberTransfer: typeof memberTransfer;
      models: typeof models;
      mcp: typeof mcp;
      modes: typeof modes;
      prompts: typeof prompts;
      publishing: typeof publishing;
      security: typeof security;
      sharing: typeof sharing;
      signup: typeof signup;
      sources: typeof sources;
      sso: typeof sso;
      ssoWhitelist: typeof ssoWhitelist;
      store: typeof store;
      studio: typeof studio;
      tenantSettings: typeof tenantSettings;
    };
  }
}
