import * as api from '../../shared/api';
import type { Endpoint } from '../../shared/api';

/** Enough decoding rounds for any honest URL; a path still changing after them is refused. */
const MAX_DECODE_ROUNDS = 4;

/**
 * The path the way any server could end up routing it, or null when it cannot be decoded: percent
 * escapes decoded until nothing changes (double encoding), backslashes as slashes, `;parameters`
 * dropped from each segment, empty and `.` segments removed, `..` resolved, lower case, no trailing
 * slash. Deliberately looser than the reference server (Fastify decodes once and is case- and
 * slash-sensitive), so that a variant some server would route to a token endpoint is never missed.
 */
export function normalisedPath(pathname: string): string | null {
  let path = pathname;
  for (let round = 0; ; round += 1) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      return null;
    }
    if (decoded === path) break;
    if (round === MAX_DECODE_ROUNDS) return null;
    path = decoded;
  }
  const segments: string[] = [];
  for (const raw of path.replaceAll('\\', '/').split('/')) {
    const segment = raw.split(';')[0]!.trim();
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment.toLowerCase());
  }
  return `/${segments.join('/')}`;
}

/**
 * True when `url` is the API base itself or below it: same scheme, host and port, no credentials,
 * and a normalised path under the base path, so neither `..` nor its encodings can escape.
 */
export function isUnderApiBase(url: string, apiBase: string): boolean {
  if (!URL.canParse(url)) return false;
  const target = new URL(url);
  const base = new URL(apiBase);
  if (target.protocol !== base.protocol || target.host !== base.host || target.username || target.password) return false;
  const path = normalisedPath(target.pathname);
  const basePath = normalisedPath(base.pathname);
  if (path === null || basePath === null) return false;
  return path === basePath || basePath === '/' || path.startsWith(`${basePath}/`);
}

function isEndpoint(value: unknown): value is Endpoint {
  return typeof value === 'object' && value !== null && 'method' in value && 'path' in value && typeof value.path === 'string' && 'response' in value;
}

/** Every endpoint of the shared contract: the endpoints of each namespace `src/shared/api` exports. */
export const CONTRACT_ENDPOINTS: readonly Endpoint[] = Object.values(api).flatMap((namespace) =>
  typeof namespace === 'object' && namespace !== null ? Object.values(namespace).filter(isEndpoint) : [],
);

/** Path templates of the endpoints whose request or answer carries session tokens. */
export const TOKEN_ENDPOINT_PATHS: readonly string[] = CONTRACT_ENDPOINTS.filter((endpoint) => endpoint.carriesTokens).map((endpoint) => endpoint.path);

/** `/auth/:provider/callback/` → a matcher for normalised paths (a `:name` is any one segment). */
function templateMatcher(basePath: string, template: string): RegExp {
  const segments = normalisedPath(`${basePath}/${template}`)!
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${segments.join('/')}$`);
}

/**
 * True when `url` could reach a token endpoint: its normalised path matches one of the templates,
 * whatever method is used. Undecodable paths count as token endpoints (refused, never guessed at).
 */
export function isTokenEndpoint(url: string, apiBase: string, templates: readonly string[] = TOKEN_ENDPOINT_PATHS): boolean {
  const path = normalisedPath(new URL(url).pathname);
  if (path === null) return true;
  const basePath = new URL(apiBase).pathname;
  return templates.some((template) => templateMatcher(basePath, template).test(path));
}

/** Keys that name a session token in an answer, compared without case, `_` or `-`. */
const TOKEN_KEYS = new Set(['accesstoken', 'refreshtoken']);
const isTokenKey = (key: string) => TOKEN_KEYS.has(key.toLowerCase().replace(/[-_]/g, ''));

function hasTokenKey(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasTokenKey);
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(value).some(([key, nested]) => isTokenKey(key) || hasTokenKey(nested));
}

/**
 * True when a response body is JSON with a token field at any depth: the last line of defence for
 * an endpoint that answers with tokens but is missing from the contract's `carriesTokens`. Only
 * bodies mentioning "oken" at all are parsed, so downloads and ordinary answers cost a byte search.
 */
export function bodyCarriesTokens(body: Uint8Array): boolean {
  if (Buffer.from(body.buffer, body.byteOffset, body.byteLength).indexOf('oken') === -1) return false;
  try {
    return hasTokenKey(JSON.parse(new TextDecoder().decode(body)));
  } catch {
    return false;
  }
}
