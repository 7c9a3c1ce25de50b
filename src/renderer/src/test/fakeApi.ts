import { vi } from 'vitest';
import { setPlatformForTests } from '../platform';
import { createWebPlatform } from '../platform/web';

export const TEST_API_BASE = 'http://app.test/api/v1';

type Handler = (request: Request) => Response | Promise<Response>;

/**
 * Installs the real web platform over a fake network answering `"METHOD /path/"` routes (paths
 * below the API base, query string ignored). Unknown routes answer 404 so a missing one shows.
 */
export function installFakeApi(routes: Record<string, Handler>) {
  const requests: Request[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    requests.push(request.clone());
    const path = new URL(request.url).pathname.slice(new URL(TEST_API_BASE).pathname.length);
    const handler = routes[`${request.method} ${path}`];
    return handler ? handler(request) : Response.json({ code: 'not_found', message: path }, { status: 404 });
  });
  setPlatformForTests(createWebPlatform({ fetch, apiBase: TEST_API_BASE }));
  return { fetch, requests, find: (method: string, path: string) => requests.filter((r) => r.method === method && r.url.includes(path)) };
}

export function page<T>(items: T[], pageNumber = 1, totalPages = 1) {
  return { items, total_items: items.length, total_pages: totalPages, page: pageNumber, page_size: 30 };
}
