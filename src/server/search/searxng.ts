import { z } from 'zod';
import { SearchFailed, type SearchProvider } from './provider';

/** Long enough for a metasearch over several engines, short enough that the member is not left waiting. */
const TIMEOUT_MS = 10_000;

const responseSchema = z.object({
  results: z.array(z.object({ url: z.string(), title: z.string().optional(), content: z.string().optional() }).loose()),
});

/** Only web pages are cited: a result's URL must be http(s). */
const isWebUrl = (url: string) => /^https?:\/\//i.test(url);

/** SearXNG's JSON API: `GET {base}/search?q=…&format=json` (the instance must allow the json format). */
export function searxngProvider(baseUrl: string): SearchProvider {
  const endpoint = new URL('search', baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  return {
    async search(query, { limit, signal }) {
      const url = new URL(endpoint);
      url.searchParams.set('q', query);
      url.searchParams.set('format', 'json');
      const timeout = AbortSignal.timeout(TIMEOUT_MS);
      let response: Response;
      try {
        response = await fetch(url, { headers: { accept: 'application/json' }, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
      } catch (error) {
        throw new SearchFailed(`search service unreachable: ${(error as Error).message}`);
      }
      if (!response.ok) throw new SearchFailed(`search service answered ${response.status}`);
      const parsed = responseSchema.safeParse(await response.json().catch(() => null));
      if (!parsed.success) throw new SearchFailed('search service answered something other than SearXNG JSON');
      return parsed.data.results
        .filter((result) => isWebUrl(result.url))
        .slice(0, limit)
        .map((result) => ({
          url: result.url,
          title: result.title?.trim() || result.url,
          snippet: (result.content ?? '').replace(/\s+/g, ' ').trim().slice(0, 500),
        }));
    },
  };
}
