import type { ServerConfig } from '../config';
import { searxngProvider } from './searxng';

export { SearchFailed, type SearchProvider, type WebResult } from './provider';

/** The provider the configuration names (SEARCH_URL, else SEARXNG_URL), or none: web search is then off. */
export function searchProviderFromConfig(config: ServerConfig) {
  const url = config.SEARCH_URL ?? config.SEARXNG_URL;
  return url ? searxngProvider(url) : undefined;
}
