/** Names on the wire between the clients and the API. */
export const ACCESS_TOKEN_HEADER = 'x-access-token';
export const SUBDOMAIN_HEADER = 'x-subdomain';
export const SUBDOMAIN_COOKIE = 'subdomain';
export const REFRESH_COOKIE = 'refresh_token';
/** Desktop clients ask for the refresh token in the body instead of a cookie. */
export const CLIENT_KIND_HEADER = 'x-client-kind';
export const API_PREFIX = '/api/v1';
/** The rendered API reference ("Docs") under the API prefix; `?lang=` picks its interface language. */
export const API_REFERENCE_PATH = '/docs/';
