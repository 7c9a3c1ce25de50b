import type { ChatBody, ChatFrame, ChatMeta, Member, SessionEndReason } from '../../../shared/api';
import type { SupportedLanguage } from '../../../shared/domain/language';
import type { TransferProgress } from '../../../shared/ipc/contract';

export type { SessionEndReason, TransferProgress };

/** Why the member went to the SSO provider: to sign in (or up), or to connect their account (My page). */
export type SsoIntent = 'sign_in' | 'connect';

/** The provider's answer, ready for `POST /sso-platforms/:id/verify/`; `error` when the provider refused. */
export interface SsoReturn {
  platformId: number;
  intent: SsoIntent;
  callback: { code: string; code_verifier: string; state: string; iss?: string; redirect_url: string } | { error: string };
}

export interface ClientSettings {
  /** API base URL, e.g. https://host/api/v1. On the web it is the page's own origin. */
  apiBase: string;
  /** Tenant (workspace) sent as x-subdomain; null uses the server's default tenant. */
  subdomain: string | null;
}

export interface ChatStreamRequest {
  chatbotId: number;
  body: ChatBody;
  /** A signed-out visitor's chat with a public chatbot (POST /public/chatbots/{id}/chat/, web only), answered in their language. */
  visitor?: { language: SupportedLanguage };
  signal: AbortSignal;
  onMeta: (meta: ChatMeta) => void;
  onFrame: (frame: ChatFrame) => void;
}

/**
 * Everything the renderer needs from the outside world. The web implementation talks HTTP from
 * the page (access token in memory, refresh token in an HttpOnly cookie); the desktop one goes
 * through `window.bridge` so tokens stay in main. Features reach it only through `src/api`.
 */
export interface Platform {
  readonly kind: 'web' | 'desktop';
  /**
   * fetch with the access token and tenant attached and one refresh on 401; used by ky. With
   * `onProgress`, told how much of the body went out and of the answer came in (file transfers).
   */
  fetch(request: Request, onProgress?: (progress: TransferProgress) => void): Promise<Response>;
  session: {
    signIn(credentials: { email: string; password: string }): Promise<Member>;
    /** Signs in with an identity an SSO platform vouched for (`code` is its `sso_access_token`). */
    ssoSignIn(body: { code: string; sso_platform_id: number }): Promise<Member>;
    /** Resume a stored session (refresh); null when there is none. */
    restore(): Promise<Member | null>;
    signOut(): Promise<void>;
    /** Called when a refresh fails while the user is working. */
    onEnded(listener: (reason: SessionEndReason) => void): () => void;
    /**
     * Desktop only: no OS keychain is available, so the session is kept in memory and ends when the
     * app quits (DESIGN §5). Fires at once for a subscriber arriving after it happened.
     */
    onSecureStorageUnavailable?(listener: () => void): () => void;
  };
  /**
   * Sends a chat message and forwards frames until the stream ends. Rejects with ApiError for
   * errors known before streaming (400, 402, 403, 413, 422, 428); resolves when the stream ends
   * or the signal aborts (which also aborts the upstream call).
   */
  streamChat(request: ChatStreamRequest): Promise<void>;
  settings: {
    get(): Promise<ClientSettings>;
    set(patch: Partial<ClientSettings>): Promise<ClientSettings>;
  };
  /** OpenID Connect sign-in at the platform's provider (docs/decisions/0042-sso.md). */
  sso: {
    /**
     * Web: leaves the app for the provider's page (the app comes back at SSO_WEB_CALLBACK_PATH) and
     * never resolves. Desktop: the system browser, then resolves with the provider's answer.
     */
    authorize(platformId: number, intent: SsoIntent): Promise<SsoReturn>;
    /** Web: the provider's answer at the callback page with what was kept before leaving; null if none. */
    takeReturn(location: { search: string }): Promise<SsoReturn | null>;
  };
  openAdminConsole(): void;
  openExternal(url: string): void;
}
