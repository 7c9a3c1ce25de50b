import type { connect as netConnect } from 'node:net';
import type { connect as tlsConnect } from 'node:tls';
import { Client, EqualityFilter, InvalidCredentialsError } from 'ldapts';
import type { DirectoryPlatformConfig } from '../../shared/domain/sso';
import { normalizePhone } from '../../shared/domain/signup';
import type { AppDeps } from '../deps';
import type { OutboundGuard } from '../net/outboundGuard';
import { type SsoIdentity, SsoPlatformUnavailableError, SsoRejectedError } from './identity';

const TIMEOUT_MS = 10_000;

const first = (value: unknown): string | undefined => {
  const one = Array.isArray(value) ? value[0] : value;
  if (Buffer.isBuffer(one)) return one.toString('utf8');
  return typeof one === 'string' ? one : undefined;
};

type Connections = Pick<OutboundGuard, 'connect' | 'connectTls'>;

/** Every connection to the directory is opened by the outbound guard (ldap:// and ldaps:// alike). */
async function withClient<T>(outbound: Connections, url: string, work: (ldap: Client) => Promise<T>): Promise<T> {
  const ldap = new Client({
    url,
    timeout: TIMEOUT_MS,
    connectTimeout: TIMEOUT_MS,
    // ldapts calls them as (port, host[, tlsOptions]), the one form the guard implements.
    createConnection: outbound.connect as typeof netConnect,
    createSecureConnection: outbound.connectTls as typeof tlsConnect,
  });
  try {
    return await work(ldap);
  } finally {
    await ldap.unbind().catch(() => undefined);
  }
}

const unavailable = (error: unknown) =>
  error instanceof SsoRejectedError || error instanceof SsoPlatformUnavailableError ? error : new SsoPlatformUnavailableError((error as Error).message);

/**
 * Directory credentials (LDAP): the service account finds the user's entry by user ID (an escaped
 * equality filter), then a bind as that entry with the user's password proves it. One entry exactly,
 * else the same refusal as a wrong password, so the answer says nothing about which IDs exist.
 */
async function authenticateWithDirectory(outbound: Connections, settings: DirectoryPlatformConfig, userId: string, password: string): Promise<SsoIdentity> {
  // An empty password would be an anonymous bind, which LDAP servers accept: never a proof.
  if (!userId.trim() || !password) throw new SsoRejectedError('Missing user ID or password');
  const attributes = [settings.email_attribute, settings.name_attribute, ...(settings.phone_attribute ? [settings.phone_attribute] : [])];
  try {
    const entry = await withClient(outbound, settings.url, async (ldap) => {
      if (settings.bind_dn) await ldap.bind(settings.bind_dn, settings.bind_password);
      const { searchEntries } = await ldap.search(settings.search_base, {
        scope: 'sub',
        filter: new EqualityFilter({ attribute: settings.user_id_attribute, value: userId.trim() }),
        attributes,
        sizeLimit: 2,
      });
      return searchEntries.length === 1 ? searchEntries[0]! : null;
    });
    if (!entry) throw new SsoRejectedError('No single entry for this user ID');
    await withClient(outbound, settings.url, (ldap) => ldap.bind(entry.dn, password)).catch((error: unknown) => {
      throw error instanceof InvalidCredentialsError ? new SsoRejectedError('Wrong password') : error;
    });
    const email = first(entry[settings.email_attribute]);
    if (!email) throw new SsoRejectedError('The directory entry has no email address');
    const phone = settings.phone_attribute ? normalizePhone(first(entry[settings.phone_attribute]) ?? '') : null;
    return { subject: entry.dn, email, name: first(entry[settings.name_attribute])?.trim() || userId.trim(), ...(phone ? { phone } : {}) };
  } catch (error) {
    throw unavailable(error);
  }
}

/** Directory sign-in whose connections go through the outbound guard. */
export function createDirectoryAdapter({ outbound }: Pick<AppDeps, 'outbound'>) {
  return {
    authenticate: (settings: DirectoryPlatformConfig, userId: string, password: string) => authenticateWithDirectory(outbound, settings, userId, password),
  };
}

export type DirectoryAdapter = ReturnType<typeof createDirectoryAdapter>;
