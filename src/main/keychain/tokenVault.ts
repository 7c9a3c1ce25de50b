import type { SecretStore } from './secretStore';

export interface SessionTokens {
  accessToken: string;
  refreshToken: string;
}

export type TokenStorage = 'keychain' | 'memory' | 'unknown';

const ACCESS_ACCOUNT = 'access-token';
const REFRESH_ACCOUNT = 'refresh-token';

/**
 * Where main keeps the tokens: in memory while the app runs and in the OS keychain across restarts.
 * The first keychain failure (no Secret Service, locked or missing keychain) switches the vault to
 * memory only for the rest of the run and tells `onUnavailable`; tokens are never written anywhere else.
 */
export function createTokenVault(store: SecretStore, onUnavailable: () => void) {
  const inMemory = new Map<string, SessionTokens>();
  let storage: TokenStorage = 'unknown';

  async function withKeychain<T>(operation: () => Promise<T>): Promise<T | undefined> {
    if (storage === 'memory') return undefined;
    try {
      const result = await operation();
      storage = 'keychain';
      return result;
    } catch {
      storage = 'memory';
      onUnavailable();
      return undefined;
    }
  }

  return {
    storage: (): TokenStorage => storage,

    async load(service: string): Promise<SessionTokens | null> {
      const cached = inMemory.get(service);
      if (cached) return cached;
      const stored = await withKeychain(async () => {
        const [accessToken, refreshToken] = await Promise.all([store.get(service, ACCESS_ACCOUNT), store.get(service, REFRESH_ACCOUNT)]);
        return refreshToken ? { accessToken: accessToken ?? '', refreshToken } : null;
      });
      if (stored) inMemory.set(service, stored);
      return stored ?? null;
    },

    async save(service: string, tokens: SessionTokens): Promise<void> {
      inMemory.set(service, tokens);
      await withKeychain(async () => {
        await store.set(service, ACCESS_ACCOUNT, tokens.accessToken);
        await store.set(service, REFRESH_ACCOUNT, tokens.refreshToken);
      });
    },

    async clear(service: string): Promise<void> {
      inMemory.delete(service);
      await withKeychain(async () => {
        await Promise.all([store.delete(service, ACCESS_ACCOUNT), store.delete(service, REFRESH_ACCOUNT)]);
      });
    },
  };
}

export type TokenVault = ReturnType<typeof createTokenVault>;
