import type { AuthTokens } from '../../../src/shared/api/auth';
import type { TestServer } from '../../fixtures/testServer';

/** Response bodies in tests are arbitrary JSON checked by the assertions themselves. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

export interface CallOptions {
  method?: string;
  body?: unknown;
  token?: string;
  tenant?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface CallResult<T> {
  status: number;
  body: T;
  headers: Headers;
}

/** A thin HTTP client for the API under test: JSON in, JSON out, the headers the real clients send. */
export function apiClient(server: Pick<TestServer, 'apiBase'>) {
  async function call<T = Json>(path: string, options: CallOptions = {}): Promise<CallResult<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.token) headers['x-access-token'] = options.token;
    if (options.tenant) headers['x-subdomain'] = options.tenant;
    const response = await fetch(`${server.apiBase}${path}`, {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
    const text = await response.text();
    // Downloads (an export, a template) answer a file, kept as text; everything else is JSON.
    const isJson = response.headers.get('content-type')?.includes('json') ?? false;
    return { status: response.status, body: (text ? (isJson ? JSON.parse(text) : text) : null) as T, headers: response.headers };
  }

  /** Signs in and returns the tokens (desktop style, refresh token in the body) or throws. */
  async function signIn(credentials: { email: string; password: string }, tenant?: string): Promise<AuthTokens & { refresh_token: string }> {
    const result = await call<AuthTokens>('/auth/sign-in/', {
      method: 'POST',
      body: credentials,
      tenant,
      headers: { 'x-client-kind': 'desktop' },
    });
    if (result.status !== 200 || !result.body.refresh_token) throw new Error(`sign-in failed: ${result.status} ${JSON.stringify(result.body)}`);
    return result.body as AuthTokens & { refresh_token: string };
  }

  /** `POST /files/` as the web client sends it: multipart `files` parts plus the option fields. */
  async function upload(token: string | undefined, uploads: Upload[], fields: Record<string, string> = {}, tenant?: string): Promise<CallResult<Json>> {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    for (const file of uploads) form.append('files', new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'application/octet-stream' }), file.name);
    const headers: Record<string, string> = {};
    if (token) headers['x-access-token'] = token;
    if (tenant) headers['x-subdomain'] = tenant;
    const response = await fetch(`${server.apiBase}/files/`, { method: 'POST', headers, body: form });
    return { status: response.status, body: (await response.json()) as Json, headers: response.headers };
  }

  return { call, signIn, upload };
}

export interface Upload {
  name: string;
  bytes: Buffer;
  type?: string;
}

/** Reads a chat response body into its frames. */
export async function readFrames(response: Response): Promise<Json[]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => JSON.parse(block.slice('data: '.length)));
}

/** The JSON body of a raw fetch response. */
export async function jsonBody(response: Response): Promise<Json> {
  return response.json();
}
