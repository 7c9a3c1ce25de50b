/**
 * Single sign-on (spec §2, §7, §8; docs/decisions/0042-sso.md). Two kinds of platform behind one
 * interface: an OpenID Connect provider (authorization code with PKCE) and a directory (user ID and
 * password checked by an LDAP bind, then a verification code by email or SMS).
 */
export const SSO_PLATFORM_KINDS = ['oidc', 'directory'] as const;
export type SsoPlatformKind = (typeof SSO_PLATFORM_KINDS)[number];

/** How long the identity an SSO platform vouched for may be used to sign in, sign up or connect. */
export const SSO_IDENTITY_TTL_MINUTES = 10;

/** Where the web client's OpenID Connect redirect lands (the IdP must list `<origin>` + this). */
export const SSO_WEB_CALLBACK_PATH = '/auth/sso/callback';
/** Where the desktop app's loopback listener takes the redirect (RFC 8252 §7.3: any port of 127.0.0.1). */
export const SSO_DESKTOP_CALLBACK_PATH = '/sso/callback';

/** Server-side settings of a platform; the secrets never leave the server (admin answers mask them). */
export interface OidcPlatformConfig {
  kind: 'oidc';
  /** The issuer URL; its /.well-known/openid-configuration is read. */
  issuer: string;
  client_id: string;
  client_secret: string;
}

export interface DirectoryPlatformConfig {
  kind: 'directory';
  /** ldap:// or ldaps:// URL of the directory. */
  url: string;
  /** A service account that may search for users (empty: anonymous search). */
  bind_dn: string;
  bind_password: string;
  search_base: string;
  /** The attribute the user ID is matched against, e.g. uid or sAMAccountName. */
  user_id_attribute: string;
  email_attribute: string;
  name_attribute: string;
  /** The attribute holding the phone for SMS codes (empty: email only). */
  phone_attribute: string;
}

export type SsoPlatformConfig = OidcPlatformConfig | DirectoryPlatformConfig;
