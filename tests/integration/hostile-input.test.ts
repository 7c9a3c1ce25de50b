import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { serverSecrets } from '../../src/server/db/schema';
import { API_KEY_PREFIX } from '../../src/shared/domain/apiKeys';
import { API_PREFIX } from '../../src/shared/domain/http';
import * as contract from '../../src/shared/api';
import type { SessionExport } from '../../src/shared/api/sessionTransfer';
import { SESSION_IMPORT_MAX_BYTES } from '../../src/shared/domain/sessionTransfer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConnectionRecorder } from '../fixtures/ports';
import { samplePng } from '../fixtures/sampleFiles';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient } from './helpers/client';

/**
 * Every operation of the served OpenAPI document gets malformed path parameters, queries, bodies and
 * headers, as an anonymous caller, a member and an admin. Any 5xx (or a dropped connection) fails:
 * hostile input must always be a 4xx (DESIGN §5). So does input only the database refused (the error
 * handler's safety net answers 400 without details): the contract should have stopped it first.
 * New endpoints are covered as soon as they are in the contract.
 */

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  default?: unknown;
  minimum?: number;
  minLength?: number;
  format?: string;
}

interface Operation {
  method: string;
  /** OpenAPI template, e.g. /api/v1/sessions/{hash}/ */
  path: string;
  pathParams: string[];
  queryParams: string[];
  body?: JsonSchema;
  /** The contract's access level (`x-access`). */
  access: 'public' | 'member' | 'admin' | 'apiKey';
}

type Role = 'anonymous' | 'member' | 'admin' | 'apiKey';

/**
 * How much of an operation a role attacks. The access guard runs before the path, query and body
 * are validated, and reads only the headers, so a caller it refuses (`refused`) sends the header
 * cases and the bodies the parser must refuse on its own. A caller of the operation's own level
 * (and a signed-in member on a public one: a token takes other paths there) sends everything
 * (`full`). A higher role on a lower operation (an admin on a member one) reaches the same
 * validation the lower role attacked in full, so it adds the path segments only, whose lookups
 * depend on who asks (`reached`).
 */
type Coverage = 'full' | 'reached' | 'refused';

/**
 * The PostgreSQL pass sends only what can put a hostile value into a query: path segments, query
 * values and body fields, which the contract may accept and a handler then looks up or stores. The
 * rest is answered before any query reads it, the same on any database, and the PGlite pass of `npm
 * test` sends it all: a hostile tenant (checked against a pattern first), an access token (its
 * signature first), a refresh cookie (only its hash is looked up), a whole body the parser or the
 * contract refuses, and a caller the access guard refuses (before the body is even read). Counted
 * on PGlite, these were a third of the requests and never ran a statement with the hostile value.
 */
const ON_POSTGRES = Boolean(process.env.TEST_DATABASE_URL);

function coverage(role: Role, access: Operation['access']): Coverage {
  if (access === 'public') return role === 'anonymous' || role === 'member' ? 'full' : 'reached';
  if (role === access) return 'full';
  return access === 'member' && role === 'admin' ? 'reached' : 'refused';
}

interface HostileRequest {
  label: string;
  path: string;
  query?: string;
  body?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

const NUL = '\u0000';
const DEEP_NESTING = 50_000;

/** Raw path segments, already percent-encoded as an attacker would type them. */
const HOSTILE_SEGMENTS: Record<string, string> = {
  'NUL byte': '%00',
  'NUL inside': 'abc%00def',
  'very long': 'a'.repeat(5_000),
  'long enough to pass the router': 'b'.repeat(90),
  traversal: '..%2F..%2Fetc%2Fpasswd',
  'dot segments': '..',
  emoji: '%F0%9F%98%80',
  'right-to-left override': '%E2%80%AE',
  'invalid UTF-8': '%FF%FE',
  'truncated escape': '%E0%A4%A',
  'lone percent': '%',
  negative: '-1',
  zero: '0',
  'above int4': '2147483648',
  huge: '99999999999999999999999',
  exponent: '1e400',
  fraction: '1.5',
  'not a number': 'abc',
  NaN: 'NaN',
  Infinity: 'Infinity',
  whitespace: '%20%0A%09',
  'quote and SQL': "'%20OR%201%3D1--",
  script: '%3Cscript%3Ealert(1)%3C%2Fscript%3E',
};

/** Values for one query parameter (raw, percent-encoded). */
const HOSTILE_QUERY_VALUES: Record<string, string> = {
  'NUL byte': '%00',
  'NUL inside': 'a%00b',
  'very long': 'q'.repeat(6_000),
  negative: '-1',
  zero: '0',
  'above int4': '2147483648',
  huge: '99999999999999999999999',
  exponent: '1e400',
  fraction: '1.5',
  'not a number': 'abc',
  'invalid UTF-8': '%FF',
  emoji: '%F0%9F%98%80',
  empty: '',
};

/** Values a JSON body field gets instead of a valid one. */
const HOSTILE_FIELD_VALUES: Record<string, unknown> = {
  'NUL byte': NUL,
  'NUL inside': `hello${NUL}world`,
  'huge string': 'z'.repeat(200_000),
  unicode: 'héllo 😀 \u202e مرحبا 你好',
  'lone surrogate': '\ud800',
  traversal: '../../etc/passwd',
  negative: -1,
  zero: 0,
  'above int4': 2 ** 31,
  'unsafe integer': 2 ** 53 + 2,
  'huge number': 1e308,
  fraction: 1.5,
  null: null,
  boolean: true,
  'empty object': {},
  'array of strings': ['a', NUL],
  'array of huge numbers': [2 ** 31, -5],
  'nested arrays': JSON.parse(`${'['.repeat(200)}1${']'.repeat(200)}`),
  'object with NUL key': { [`k${NUL}`]: 1 },
};

/** Whole bodies that are not what any endpoint accepts. */
const HOSTILE_BODIES: { label: string; body: string; contentType?: string }[] = [
  { label: 'invalid JSON', body: '{"text": ' },
  { label: 'empty JSON body', body: '' },
  { label: 'JSON null', body: 'null' },
  { label: 'JSON array', body: '[]' },
  { label: 'JSON string', body: '"hello"' },
  { label: 'JSON number', body: '42' },
  { label: 'prototype pollution', body: '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}' },
  { label: 'deeply nested arrays', body: `${'['.repeat(DEEP_NESTING)}${']'.repeat(DEEP_NESTING)}` },
  { label: 'deeply nested objects', body: `${'{"a":'.repeat(DEEP_NESTING)}1${'}'.repeat(DEEP_NESTING)}` },
  { label: 'NUL in raw JSON', body: '{"text":"a\\u0000b","email":"\\u0000","title":"\\u0000","content":"\\u0000"}' },
  { label: 'over the body limit', body: JSON.stringify({ text: 'x'.repeat(1_100_000) }) },
  { label: 'plain text', body: 'hello', contentType: 'text/plain' },
  { label: 'form encoded', body: 'text=hello&email=a%00b', contentType: 'application/x-www-form-urlencoded' },
  { label: 'XML', body: '<a>hello</a>', contentType: 'application/xml' },
  { label: 'JSON in UTF-16', body: '{"text":"hello"}', contentType: 'application/json; charset=utf-16' },
  { label: 'multipart without boundary', body: 'hello', contentType: 'multipart/form-data' },
];

function resolveSchema(schema: JsonSchema | undefined): JsonSchema {
  const alternative = schema?.anyOf?.[0] ?? schema?.oneOf?.[0];
  return alternative ? resolveSchema(alternative) : (schema ?? {});
}

/** A plausible valid value for a schema, so that one hostile field is all that is wrong. */
function sampleValue(raw: JsonSchema | undefined): unknown {
  const schema = resolveSchema(raw);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object':
      return Object.fromEntries((schema.required ?? []).map((name) => [name, sampleValue(schema.properties?.[name])]));
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1);
    case 'boolean':
      return true;
    case 'string':
      if (schema.format === 'email') return 'someone@example.test';
      return 'valid text'.padEnd(schema.minLength ?? 0, 'x');
    default:
      return 'x';
  }
}

interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      { 'x-access': Operation['access']; parameters?: { name: string; in: string }[]; requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }
    >
  >;
}

function operationsOf(document: OpenApiDocument): Operation[] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      pathParams: (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
      queryParams: (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
      body: operation.requestBody?.content?.['application/json']?.schema,
      access: operation['x-access'],
    })),
  );
}

/** The hostile requests for one operation at a coverage; `valid` fills path parameters that are not under attack. */
function hostileRequests(operation: Operation, valid: (param: string) => string, role: Role): HostileRequest[] {
  const covered = coverage(role, operation.access);
  const fill = (override: Record<string, string> = {}) =>
    operation.path.replace(/\{(\w+)\}/g, (_, name: string) => override[name] ?? encodeURIComponent(valid(name)));
  const requests: HostileRequest[] = [];

  for (const param of covered === 'refused' ? [] : operation.pathParams) {
    for (const [label, segment] of Object.entries(HOSTILE_SEGMENTS)) {
      requests.push({ label: `path ${param}: ${label}`, path: fill({ [param]: segment }) });
    }
  }

  const path = fill();
  for (const param of covered === 'full' ? operation.queryParams : []) {
    for (const [label, value] of Object.entries(HOSTILE_QUERY_VALUES)) {
      requests.push({ label: `query ${param}: ${label}`, path, query: `${param}=${value}` });
    }
    requests.push({ label: `query ${param}: repeated`, path, query: `${param}=1&${param}=2` });
    requests.push({ label: `query ${param}: bracket array`, path, query: `${param}[]=1&${param}[a]=%00` });
  }
  // The router parses the query before the access guard runs, the same for every caller: the caller
  // that gets past the guard sends it.
  if (covered !== 'refused') requests.push({ label: 'query: unknown NUL parameter', path, query: '%00=%00&__proto__=1&constructor[prototype]=x' });

  if (!ON_POSTGRES) {
    // The tenant is resolved before anything reads the caller's token, and a hostile access token
    // replaces the caller's own: an anonymous caller's request is the same as a member's or an
    // admin's, so it is sent once (an API key's stays, in the Authorization header beside it).
    const tenantCases: [string, Record<string, string>][] = [
      ['NUL in the tenant cookie', { cookie: 'subdomain=%00' }],
      ['invalid UTF-8 in the tenant cookie', { cookie: 'subdomain=%FF%FE' }],
      ['very long tenant header', { 'x-subdomain': 't'.repeat(4_000) }],
      ['traversal tenant header', { 'x-subdomain': '../../etc' }],
    ];
    const tokenCases: [string, Record<string, string>][] = [
      ['garbage access token', { 'x-access-token': 'not.a.token' }],
      ['access token with bad base64', { 'x-access-token': 'v1.%%%%.@@@@' }],
      ['very long access token', { 'x-access-token': 'a.'.repeat(3_000) }],
    ];
    const headerCases: [string, Record<string, string>][] = [
      ...(role === 'anonymous' ? tenantCases : []),
      ...(role === 'anonymous' || role === 'apiKey' ? tokenCases : []),
      ['NUL in the refresh cookie', { cookie: 'refresh_token=%00' }],
    ];
    for (const [label, headers] of headerCases) requests.push({ label: `header: ${label}`, path, headers });
  }

  if (operation.method === 'GET') return requests;

  if (operation.body && covered === 'full') {
    const baseline = sampleValue(operation.body) as Record<string, unknown>;
    const fields = Object.keys(resolveSchema(operation.body).properties ?? {});
    for (const field of fields) {
      for (const [label, value] of Object.entries(HOSTILE_FIELD_VALUES)) {
        requests.push({ label: `body ${field}: ${label}`, path, body: JSON.stringify({ ...baseline, [field]: value }) });
      }
    }
    for (const hostile of ON_POSTGRES ? [] : HOSTILE_BODIES)
      requests.push({ label: `body: ${hostile.label}`, path, body: hostile.body, contentType: hostile.contentType });
  } else if (!ON_POSTGRES) {
    // Without a body schema (or when the handler was attacked in full by another role) only the
    // ones the parser must refuse.
    for (const hostile of HOSTILE_BODIES.filter((b) => ['invalid JSON', 'XML', 'deeply nested arrays'].includes(b.label))) {
      requests.push({ label: `body: ${hostile.label}`, path, body: hostile.body, contentType: hostile.contentType });
    }
  }
  return requests;
}

/** "METHOD /api/v1/path/{param}/": how an operation is named in the OpenAPI document. */
const operationKey = (operation: Pick<Operation, 'method' | 'path'>) => `${operation.method} ${operation.path}`;

/**
 * Every operation of the contract with its access level, known before the server starts (the
 * OpenAPI document is generated from the same endpoints), so each gets tests of its own.
 */
const CONTRACT_OPERATIONS = new Map(
  Object.values(contract)
    .flatMap((module) => (typeof module === 'object' && module !== null ? Object.values(module as object) : []))
    .filter((value): value is contract.Endpoint => typeof value === 'object' && value !== null && 'method' in value && 'path' in value && 'access' in value)
    .map((endpoint) => [operationKey({ method: endpoint.method, path: `${API_PREFIX}${endpoint.path.replace(/:(\w+)/g, '{$1}')}` }), endpoint.access]),
);

let server: TestServer;
let tokens: { member: string; admin: string; apiKey: string };
let validParam: (operation: Operation, param: string) => string;
let operations: Operation[];

beforeAll(async () => {
  // The API key's calls must reach the handlers, not its rate limit. No internal address is
  // allowed for tenants' SSO platforms, as in production. The tenant and member rows are cached as
  // in production (other suites turn that off to see changes at once): some 15,000 requests each
  // read them otherwise.
  server = await startTestServer({ extraTenants: ['acme'], config: { API_KEY_RATE_LIMIT: 1_000_000, OUTBOUND_ALLOW: [], AUTH_CACHE_TTL_SECONDS: 5 } });
  const api = apiClient(server);
  const member = await api.signIn(DEMO_MEMBER);
  const admin = await api.signIn(DEMO_ADMIN);
  const chatbotId = (await api.call('/chatbots/?include_default=true', { token: member.access_token })).body.items[0].id as number;
  const apiKey = (await api.call('/apikeys/', { method: 'POST', token: member.access_token, body: { name: 'hostile', chatbot_ids: [chatbotId] } })).body
    .key as string;
  tokens = { member: member.access_token, admin: admin.access_token, apiKey };
  const chat = await fetch(`${server.apiBase}/chatbots/${chatbotId}/chat/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-access-token': tokens.member },
    body: JSON.stringify({ text: 'hello' }),
  });
  const hash = JSON.parse(chat.headers.get('x-chat-meta')!).session_hash_id as string;
  await chat.text();
  const announcementId = (await api.call('/announcements/latest/')).body?.announcement?.id ?? 1;
  // Real ids where the path names one, so a hostile body or query reaches the handler, not a 404.
  validParam = (operation, param) => {
    if (param === 'hash') return hash;
    if (operation.path.includes('/chatbots/')) return String(chatbotId);
    if (operation.path.includes('/members/')) return String(member.member.id);
    if (operation.path.includes('/announcements/')) return String(announcementId);
    return '1';
  };
  const document = (await (await fetch(`${server.apiBase}/openapi.json`)).json()) as OpenApiDocument;
  operations = operationsOf(document);
});
afterAll(() => server?.close());

async function send(operation: Operation, request: HostileRequest, token: string | undefined): Promise<string | null> {
  const headers: Record<string, string> = { ...request.headers };
  // An API key goes where the OpenAI-compatible API reads it; the app's tokens in their own header.
  if (token?.startsWith(API_KEY_PREFIX)) headers.authorization ??= `Bearer ${token}`;
  else if (token) headers['x-access-token'] ??= token;
  if (request.body !== undefined) headers['content-type'] = request.contentType ?? 'application/json';
  const url = `${server.url}${request.path}${request.query ? `?${request.query}` : ''}`;
  const described = `${operation.method} ${operation.path} [${request.label}]`;
  try {
    const response = await fetch(url, { method: operation.method, headers, body: request.body });
    // A request that happens to be valid for the chat endpoint starts a stream: stop it at once.
    const isStream = response.headers.get('content-type')?.startsWith('text/event-stream');
    const text = isStream ? (await response.body?.cancel(), '') : await response.text();
    if (response.status >= 500) return `${described} → ${response.status} ${text.slice(0, 200)}`;
    const refusedByDatabase = response.status === 400 && text.includes('"validation_error"') && !text.includes('"details"');
    return refusedByDatabase ? `${described} → 400 from the database, not the contract` : null;
  } catch (error) {
    return `${described} → no answer (${(error as Error).message})`;
  }
}

/** Sends one role's hostile requests for some operations, a few at a time. */
async function attack(role: Role, attacked: Operation[]): Promise<{ failures: string[]; sent: number }> {
  const token = role === 'anonymous' ? undefined : tokens[role];
  const queue = attacked.flatMap((operation) =>
    hostileRequests(operation, (param) => validParam(operation, param), role).map((request) => ({ operation, request })),
  );
  const sent = queue.length;
  const failures: string[] = [];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const failure = await send(next.operation, next.request, token);
      if (failure) failures.push(failure);
    }
  };
  await Promise.all(Array.from({ length: 6 }, worker));
  return { failures, sent };
}

describe('hostile requests for a shared session’s files (GET /public/sessions/{hash}/files/{id}/)', () => {
  /** A shared session of each tenant with one image: the demo member's and acme's. */
  const own = { hash: '', file: 0 };
  const acme = { hash: '', file: 0 };

  async function sharedSessionWithImage(tenant: string | undefined): Promise<{ hash: string; file: number }> {
    const api = apiClient(server);
    const token = (await api.signIn(DEMO_MEMBER, tenant)).access_token;
    const uploaded = await api.upload(token, [{ name: 'picture.png', bytes: samplePng() }], {}, tenant);
    const file = uploaded.body.items[0].id as number;
    const chatbotId = (await api.call('/chatbots/?include_default=true', { token, tenant })).body.items[0].id as number;
    const chat = await fetch(`${server.apiBase}/chatbots/${chatbotId}/chat/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-access-token': token, ...(tenant ? { 'x-subdomain': tenant } : {}) },
      body: JSON.stringify({ text: 'look', file_ids: [file] }),
    });
    const hash = JSON.parse(chat.headers.get('x-chat-meta')!).session_hash_id as string;
    await chat.text();
    expect((await api.call(`/sessions/${hash}/`, { method: 'PATCH', token, tenant, body: { is_public: true } })).status).toBe(200);
    return { hash, file };
  }

  /** A signed-out visitor's request, the path segments raw (as an attacker types them). */
  async function visitor(hash: string, id: string, tenant?: string) {
    const response = await fetch(`${server.apiBase}/public/sessions/${hash}/files/${id}/`, {
      headers: { 'x-access-token': 'public', ...(tenant ? { 'x-subdomain': tenant } : {}) },
    });
    const body = Buffer.from(await response.arrayBuffer());
    const code = response.headers.get('content-type')?.includes('json') ? (JSON.parse(body.toString()) as { code?: string }).code : undefined;
    return { status: response.status, code, isPng: body.subarray(1, 4).toString() === 'PNG' };
  }

  // Before the attacks below, which may leave the demo accounts in any state.
  beforeAll(async () => {
    Object.assign(own, await sharedSessionWithImage(undefined));
    Object.assign(acme, await sharedSessionWithImage('acme'));
  });

  it('serves the image of each tenant’s shared session in that tenant (the control)', async () => {
    expect(await visitor(own.hash, String(own.file))).toEqual({ status: 200, code: undefined, isPng: true });
    expect(await visitor(acme.hash, String(acme.file), 'acme')).toEqual({ status: 200, code: undefined, isPng: true });
  });

  it.each([
    '-1',
    '0',
    '2147483648',
    '99999999999999999999999',
    '1e400',
    '1.5',
    'abc',
    'NaN',
    'Infinity',
    '%00',
    '%20%0A%09',
    "'%20OR%201%3D1--",
    '..%2F..%2Fetc%2Fpasswd',
  ])('an odd file id %s is a 400 validation error', async (id) => {
    expect(await visitor(own.hash, id)).toEqual({ status: 400, code: 'validation_error', isPng: false });
  });

  it.each([
    ['NUL byte', '%00'],
    ['NUL inside', `${'a'.repeat(4)}%00`],
    ['longer than any hash', 'h'.repeat(65)],
  ])('an odd session hash (%s) is a 400 validation error', async (_, hash) => {
    expect(await visitor(hash, String(own.file))).toEqual({ status: 400, code: 'validation_error', isPng: false });
  });

  it('another tenant’s shared session, or its file, answers 404 like an unknown one', async () => {
    const refused = { status: 404, code: 'not_found', isPng: false };
    expect(await visitor(acme.hash, String(acme.file))).toEqual(refused);
    expect(await visitor(own.hash, String(acme.file))).toEqual(refused);
    expect(await visitor(acme.hash, String(own.file))).toEqual(refused);
    expect(await visitor(own.hash, String(own.file), 'acme')).toEqual(refused);
    // Near misses of the real hash (case, a trailing character, SQL wildcards) find nothing either.
    for (const hash of [own.hash.toUpperCase(), `${own.hash}x`, `${own.hash.slice(0, -1)}_`, '%25', `${own.hash.slice(0, 4)}%25`]) {
      expect(await visitor(hash, String(own.file)), hash).toEqual(refused);
    }
  });
});

// Before the attacks below, which may leave the demo accounts in any state.
describe('hostile chat imports (POST /sessions/import/, issue 23)', () => {
  const post = (body: string) =>
    fetch(`${server.apiBase}/sessions/import/`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-access-token': tokens.member }, body });
  let document: SessionExport;
  beforeAll(async () => {
    const chatbotId = (await apiClient(server).call('/chatbots/?include_default=true', { token: tokens.member })).body.items[0].id as number;
    const message: SessionExport['messages'][number] = {
      speaker: 'member',
      speaker_name: 'Me',
      created_at: '2026-01-02T03:04:05.000Z',
      text: 'hello',
      attachments: [],
      citations: [],
      tool_calls: [],
      interrupted: null,
      imported_at: null,
    };
    document = { version: 1, exported_at: '2026-01-02T03:04:05.000Z', title: 'Hostile', chatbot: { id: chatbotId, name: 'Bot' }, messages: [message] };
  });

  it('imports the well-formed document (the control)', async () => {
    expect((await post(JSON.stringify(document))).status).toBe(200);
  });

  it('answers malformed and hostile documents with a 400, never a 5xx, and stores nothing', async () => {
    const message = document.messages[0]!;
    const cases: [string, unknown][] = [
      ['no messages', { ...document, messages: [] }],
      ['an unknown speaker', { ...document, messages: [{ ...message, speaker: 'system' }] }],
      ['a time that is not one', { ...document, messages: [{ ...message, created_at: 'yesterday' }] }],
      ['a lone surrogate in a text', { ...document, messages: [{ ...message, text: 'a\ud800b' }] }],
      ['a lone surrogate in a citation', { ...document, messages: [{ ...message, citations: [{ kind: 'web', url: 'https://a.test/', title: '\udc00' }] }] }],
      ['a chatbot id out of range', { ...document, chatbot: { id: 2 ** 40, name: 'x' } }],
      ['a NUL byte', { ...document, title: 'a\u0000b' }],
      ['a string', 'not a chat'],
      ['an array', [document]],
      ['null', null],
      ['__proto__ keys', JSON.parse('{"__proto__": {"is_admin": true}, "version": 1}')],
      ['more messages than a chat may have', { ...document, messages: Array.from({ length: 5001 }, () => message) }],
    ];
    const before = (await apiClient(server).call('/sessions/', { token: tokens.member })).body.total_items;
    const answers = await Promise.all(cases.map(async ([label, body]) => [label, (await post(JSON.stringify(body))).status]));
    expect(answers).toEqual(cases.map(([label]) => [label, 400]));
    for (const raw of ['{"version": 1, "messages": [', `${'['.repeat(100_000)}${']'.repeat(100_000)}`, '']) expect((await post(raw)).status).toBe(400);
    expect((await apiClient(server).call('/sessions/', { token: tokens.member })).body.total_items).toBe(before);
  });

  it('refuses a body over the import limit before reading it (413)', async () => {
    const oversized = await post(JSON.stringify({ ...document, messages: [{ ...document.messages[0]!, text: 'x'.repeat(SESSION_IMPORT_MAX_BYTES) }] }));
    expect(oversized.status).toBe(413);
  });
});

describe('hostile input answers 4xx on every operation of the OpenAPI document', () => {
  it.each([
    ['GET', '/sessions/%00/'],
    ['GET', '/sessions/%00/history/'],
    ['PATCH', '/sessions/%00/'],
    ['PATCH', '/sessions/%00/generate-title/'],
    ['DELETE', '/sessions/%00/'],
    ['GET', '/chatbots/2147483648/'],
    ['GET', '/chatbots/?search_term=a%00b'],
  ])('%s %s is a 400 validation error', async (method, path) => {
    const body = method === 'PATCH' ? '{}' : undefined;
    const headers = { 'x-access-token': tokens.member, ...(body ? { 'content-type': 'application/json' } : {}) };
    const response = await fetch(`${server.apiBase}${path}`, { method, headers, body });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { code: string }).code).toBe('validation_error');
  });

  it('covers the contract', () => {
    expect(operations.length).toBeGreaterThan(20);
    expect(operations.some((o) => o.pathParams.length > 0 && o.body)).toBe(true);
  });

  it('knows the access level of every operation', () => {
    expect(operations.filter((o) => !['public', 'member', 'admin', 'apiKey'].includes(o.access)).map((o) => `${o.method} ${o.path}`)).toEqual([]);
  });

  it('attacks every operation in full as the role of its own level', () => {
    const attackedInFull = (operation: Operation) =>
      (['anonymous', 'member', 'admin', 'apiKey'] as const).some((role) => coverage(role, operation.access) === 'full');
    expect(operations.filter((o) => !attackedInFull(o))).toEqual([]);
  });

  it('the OpenAPI document has exactly the operations of the contract, each attacked below', () => {
    expect(operations.map(operationKey).sort()).toEqual([...CONTRACT_OPERATIONS.keys()].sort());
  });

  // One test per role and operation keeps each short even on a loaded machine; every DELETE comes
  // last, so none can hide the others (a deleted session or chatbot would turn the rest into 404s).
  const roles = ['anonymous', 'member', 'admin', 'apiKey'] as const;
  const byDeleteLast = [...CONTRACT_OPERATIONS.keys()].sort((a, b) => Number(a.startsWith('DELETE ')) - Number(b.startsWith('DELETE ')));
  // On PostgreSQL a caller the access guard refuses sends nothing (ON_POSTGRES).
  const attacks = byDeleteLast.flatMap((key) =>
    roles.filter((role) => !ON_POSTGRES || coverage(role, CONTRACT_OPERATIONS.get(key)!) !== 'refused').map((role) => [role, key] as const),
  );
  it.each(attacks)('as %s: %s', async (role, key) => {
    const { failures, sent } = await attack(
      role,
      operations.filter((operation) => operationKey(operation) === key),
    );
    expect(sent).toBeGreaterThan(0);
    expect(failures).toEqual([]);
  });
});

describe('hostile account input (issue 20)', () => {
  const call = (path: string, init: { method?: string; body?: unknown; token?: string }) =>
    fetch(`${server.apiBase}${path}`, {
      method: init.method ?? 'POST',
      headers: { 'content-type': 'application/json', ...(init.token ? { 'x-access-token': init.token } : {}) },
      body: JSON.stringify(init.body),
    });

  it('signing in with any password the new-password rules refuse is just wrong (401), and an oversized one a 400', async () => {
    for (const password of ['a', 'password', '12345678', '😀'.repeat(300), ' '.repeat(100), 'x'.repeat(1024)]) {
      const response = await call('/auth/sign-in/', { body: { email: DEMO_MEMBER.email, password } });
      expect(response.status, JSON.stringify(password.slice(0, 20))).toBe(401);
      expect(((await response.json()) as { code: string }).code).toBe('invalid_credentials');
    }
    expect((await call('/auth/sign-in/', { body: { email: DEMO_MEMBER.email, password: 'x'.repeat(1025) } })).status).toBe(400);
    // NUL never reaches a handler (the server refuses it in every body).
    expect((await call('/auth/sign-in/', { body: { email: DEMO_MEMBER.email, password: `${NUL}${NUL}` } })).status).toBe(400);
  });

  it('an access token signed with the tenant’s key but carrying hostile claims is a 401, never a 5xx', async () => {
    const [version, payload] = tokens.member.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
    const [secret] = await server.db
      .select()
      .from(serverSecrets)
      .where(eq(serverSecrets.tenantId, claims.tid as number));
    const sign = (body: object) => {
      const unsigned = `${version}.${Buffer.from(JSON.stringify(body)).toString('base64url')}`;
      return `${unsigned}.${createHmac('sha256', Buffer.from(secret!.value, 'base64url')).update(unsigned).digest('base64url')}`;
    };
    const hostile = [
      { fam: { $ne: null } },
      { fam: 42 },
      { fam: ['a', 'b'] },
      { fam: 'x'.repeat(10_000) },
      { fam: `${NUL}' or 1=1 --` },
      { sub: 'abc' },
      { sub: 1.5 },
      { sub: { id: 1 } },
    ];
    for (const overrides of hostile) {
      const response = await fetch(`${server.apiBase}/chatbots/`, { headers: { 'x-access-token': sign({ ...claims, ...overrides }) } });
      expect(response.status, JSON.stringify(overrides).slice(0, 60)).toBe(401);
    }
  });

  it('hostile minimum password lengths are a 400, and change nothing', async () => {
    const minimum = async () => ((await (await fetch(`${server.apiBase}/tenants/`)).json()) as { password_min_length: number }).password_min_length;
    const before = await minimum();
    for (const value of [-1, 0, 7, 65, 1e308, 8.5, '12', null, true, [12], { min: 12 }]) {
      const response = await call('/admin/tenant-settings/', { method: 'PATCH', token: tokens.admin, body: { password_min_length: value } });
      expect(response.status, JSON.stringify(value)).toBe(400);
    }
    expect(await minimum()).toBe(before);
  });
});

describe('hostile SSO platform addresses (server-side request forgery)', () => {
  const directory = { kind: 'directory', bind_dn: 'cn=admin,dc=corp', bind_password: 'bind-secret', search_base: 'dc=corp' };
  /** Loopback, link-local, private and reserved destinations in the spellings an admin could type. */
  const internal = (port: number) => ({
    oidc: [
      `http://127.0.0.1:${port}/internal?secret=1`,
      `http://localhost:${port}/`,
      `http://[::1]:${port}/`,
      `https://localhost:${port}/`,
      `https://127.1:${port}/`,
      `https://2130706433:${port}/`,
      `https://0x7f000001:${port}/`,
      `https://[::ffff:127.0.0.1]:${port}/`,
      `https://0.0.0.0:${port}/`,
      'https://169.254.169.254/latest/meta-data/',
      'https://10.0.0.1/',
      'https://192.168.0.1/',
      'https://[fd00::1]/',
      'https://[fe80::1]/',
    ],
    directory: [
      `ldap://127.0.0.1:${port}`,
      `ldap://localhost:${port}`,
      `ldap://2130706433:${port}`,
      `ldap://127.1:${port}`,
      `ldaps://[::1]:${port}`,
      `ldap://[::ffff:7f00:1]:${port}`,
      'ldap://169.254.169.254:80',
      'ldap://172.16.0.10',
    ],
  });
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${server.apiBase}${path}`, {
      method,
      headers: { 'x-access-token': tokens.admin, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const platforms = async () => ((await (await call('GET', '/admin/sso-platforms/')).json()) as { items: Array<{ settings: unknown }> }).items;

  it('are refused when an admin saves them (422 destination_refused): nothing is stored and nothing is connected to', async () => {
    const recorder = await startConnectionRecorder();
    try {
      const before = (await platforms()).length;
      // A platform at a public address, which an update may not move inside either.
      const created = await call('POST', '/admin/sso-platforms/', {
        sso_platform_name: 'Public IdP',
        settings: { kind: 'oidc', issuer: 'https://93.184.216.34/', client_id: 'x', client_secret: 'y' },
      });
      expect(created.status).toBe(200);
      const { id } = (await created.json()) as { id: number };
      const { oidc, directory: urls } = internal(recorder.port);
      const settings = [...oidc.map((issuer) => ({ kind: 'oidc', issuer, client_id: 'x', client_secret: 'y' })), ...urls.map((url) => ({ ...directory, url }))];
      for (const [method, path] of [
        ['POST', '/admin/sso-platforms/'],
        ['PUT', `/admin/sso-platforms/${id}/`],
      ] as const) {
        for (const setting of settings) {
          const answer = await call(method, path, { sso_platform_name: 'Internal', settings: setting });
          expect([answer.status, ((await answer.json()) as { code: string }).code], `${method} ${JSON.stringify(setting)}`).toEqual([
            422,
            'destination_refused',
          ]);
        }
      }
      const listed = await platforms();
      expect(listed).toHaveLength(before + 1);
      expect(listed.at(-1)!.settings).toMatchObject({ issuer: 'https://93.184.216.34/' });
      expect(recorder.connections()).toBe(0);
      await call('DELETE', `/admin/sso-platforms/${id}/`);
    } finally {
      await recorder.close();
    }
  });
});
