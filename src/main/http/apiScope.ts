import { authApi } from '../../shared/api';

/**
 * True when `url` is the API base itself or below it: same scheme, host and port, and a path under
 * the base path. URL parsing resolves `..` and percent-encoded dots first, so they cannot escape.
 */
export function isUnderApiBase(url: string, apiBase: string): boolean {
  if (!URL.canParse(url)) return false;
  const target = new URL(url);
  const base = new URL(apiBase);
  if (target.protocol !== base.protocol || target.host !== base.host || target.username || target.password) return false;
  const basePath = base.pathname.replace(/\/+$/, '');
  return target.pathname === basePath || target.pathname.startsWith(`${basePath}/`);
}

/** Token endpoints stay in main: their answers carry tokens the renderer must never see. */
const TOKEN_PATHS = [authApi.signIn.path, authApi.refresh.path, authApi.signOut.path];

export function isTokenEndpoint(url: string, apiBase: string): boolean {
  const basePath = new URL(apiBase).pathname.replace(/\/+$/, '');
  const path = new URL(url).pathname;
  return TOKEN_PATHS.some((tokenPath) => path === `${basePath}${tokenPath}` || path === `${basePath}${tokenPath.replace(/\/$/, '')}`);
}
