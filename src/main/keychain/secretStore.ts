/** The OS keychain as main uses it; keytar in the app, a fake only where a test says so. */
export interface SecretStore {
  get(service: string, account: string): Promise<string | null>;
  set(service: string, account: string, secret: string): Promise<void>;
  delete(service: string, account: string): Promise<void>;
}

/** The part of keytar we call. */
export interface KeytarApi {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

export function createKeytarSecretStore(keytar: KeytarApi): SecretStore {
  return {
    get: (service, account) => keytar.getPassword(service, account),
    set: (service, account, secret) => keytar.setPassword(service, account, secret),
    async delete(service, account) {
      await keytar.deletePassword(service, account);
    },
  };
}

/**
 * One keychain service per app, server origin and tenant, so two workspaces (or a staging and a
 * production server) never overwrite each other's session. The origin includes scheme and port:
 * a session kept for `https://host` is never sent to `http://host` or to another port of it.
 */
export function keychainServiceName(appId: string, apiBase: string, subdomain: string | null): string {
  return `${appId}/${new URL(apiBase).origin}/${subdomain ?? 'default'}`;
}
