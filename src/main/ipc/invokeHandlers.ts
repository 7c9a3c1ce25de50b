import type { AuthSession } from '../auth/authSession';
import type { SsoBrowserFlow } from '../auth/ssoBrowserFlow';
import type { ChatProxy } from '../chat/chatProxy';
import type { BridgeFetch } from '../http/bridgeFetch';
import type { TokenVault } from '../keychain/tokenVault';
import type { SettingsStore } from '../settings/settingsStore';
import type { InvokeHandlers } from './registerInvokeHandlers';

export interface InvokeHandlerDeps {
  session: AuthSession;
  chatProxy: ChatProxy;
  bridgeFetch: Pick<BridgeFetch, 'fetch' | 'cancel'>;
  settings: SettingsStore;
  vault: Pick<TokenVault, 'storage'>;
  openAdminWindow: () => void;
  openExternal: (url: string) => Promise<void>;
  ssoFlow: Pick<SsoBrowserFlow, 'authorize'>;
}

const OK = { ok: true } as const;

/** What main does for each invoke channel; arguments arrive already parsed by the contract. */
export function createInvokeHandlers(deps: InvokeHandlerDeps): InvokeHandlers {
  return {
    'http:fetch': ({ requestId, ...request }, event) => deps.bridgeFetch.fetch(event.sender, requestId, request),
    'http:cancel': ({ requestId }, event) => {
      deps.bridgeFetch.cancel(event.sender.id, requestId);
      return OK;
    },
    'session:signIn': (credentials) => deps.session.signIn(credentials),
    'session:ssoSignIn': (body) => deps.session.ssoSignIn(body),
    'session:restore': () => deps.session.restore(),
    'session:signOut': async () => {
      await deps.session.signOut();
      return OK;
    },
    'session:storageStatus': () => ({ storage: deps.vault.storage() }),
    'chat:start': (request, event) => deps.chatProxy.start(event.sender, request),
    'chat:cancel': ({ requestId }, event) => {
      deps.chatProxy.cancel(event.sender.id, requestId);
      return OK;
    },
    'settings:get': () => deps.settings.get(),
    'settings:set': async (patch) => {
      // Changing the server signs out of the old one first, here in main: its tokens are revoked
      // there and cleared before the new base takes effect, whatever the renderer does or skips.
      if (patch.apiBase !== undefined && patch.apiBase !== deps.settings.get().apiBase) await deps.session.signOut();
      return deps.settings.update(patch);
    },
    'window:openAdmin': () => {
      deps.openAdminWindow();
      return OK;
    },
    'shell:openExternal': async ({ url }) => {
      await deps.openExternal(url);
      return OK;
    },
    'sso:authorize': ({ sso_platform_id: platformId }) => deps.ssoFlow.authorize(platformId),
  };
}
