import { z } from 'zod';
import { errorBodySchema } from '../api/common';
import { SESSION_END_REASONS, type SessionEndReason } from '../api/apiError';
import { signInBodySchema, ssoSignInBodySchema } from '../api/auth';
import { memberSchema } from '../api/members';
import { ssoOidcCallbackSchema } from '../api/sso';
import { idSchema } from '../api/common';
import { chatBodySchema, chatFrameSchema, chatMetaSchema } from '../api/chat';
import type { EventChannel, InvokeChannel } from './channels';

/** Largest request body the bridge carries (uploads); the server enforces its own lower limits. */
export const BRIDGE_MAX_BODY_BYTES = 256 * 1024 * 1024;

const bytesSchema = z.instanceof(Uint8Array);
const headerListSchema = z.array(z.tuple([z.string().min(1).max(256), z.string().max(16_384)])).max(200);
const noArgs = z.undefined();

/** A renderer `fetch(request)` serialized for main, which performs it (DESIGN §5). */
export const bridgeRequestSchema = z.object({
  url: z.string().min(1).max(16_384),
  method: z.enum(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']),
  headers: headerListSchema,
  body: bytesSchema.refine((bytes) => bytes.byteLength <= BRIDGE_MAX_BODY_BYTES, 'Body too large').nullable(),
});
export type BridgeRequest = z.infer<typeof bridgeRequestSchema>;

export const bridgeResponseSchema = z.object({
  status: z.number().int().min(100).max(599),
  statusText: z.string(),
  headers: headerListSchema,
  body: bytesSchema,
});
export type BridgeResponse = z.infer<typeof bridgeResponseSchema>;

/** Loopback hosts, where plain http never leaves the machine: localhost, 127.0.0.0/8 and ::1. */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/**
 * What is wrong with an API base, if anything: `invalid` unless it is an http(s) URL without
 * credentials, query or fragment; `insecure` when it is http on a host other than loopback, since
 * the refresh token would then travel in clear text.
 */
export function apiBaseProblem(value: string): 'invalid' | 'insecure' | null {
  if (!URL.canParse(value)) return 'invalid';
  const url = new URL(value);
  if (!['https:', 'http:'].includes(url.protocol) || url.username || url.password || url.search || url.hash) return 'invalid';
  return url.protocol === 'http:' && !isLoopbackHost(url.hostname) ? 'insecure' : null;
}

/** An API base: https, or http on loopback only (see apiBaseProblem); stored without a trailing slash. */
export const apiBaseSchema = z
  .string()
  .trim()
  .max(2048)
  .superRefine((value, context) => {
    const problem = apiBaseProblem(value);
    if (problem === 'invalid') context.addIssue({ code: 'custom', message: 'An http(s) URL without credentials, query or fragment' });
    if (problem === 'insecure') context.addIssue({ code: 'custom', message: 'https is required except for this computer (localhost, 127.0.0.1, ::1)' });
  })
  .transform((value) => value.replace(/\/+$/, ''));

/** A tenant subdomain: DNS label characters only. */
export const subdomainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/);

export const desktopSettingsSchema = z.object({
  apiBase: apiBaseSchema,
  subdomain: subdomainSchema.nullable(),
  /** False until the user confirmed server and workspace on first run. */
  configured: z.boolean(),
});
export type DesktopSettings = z.infer<typeof desktopSettingsSchema>;

export const desktopSettingsPatchSchema = z
  .object({
    apiBase: apiBaseSchema,
    subdomain: subdomainSchema.nullable(),
  })
  .partial()
  .strict();

/** The id a renderer gives each request it may cancel (`http:cancel`, `chat:cancel`); unique per window. */
const requestIdSchema = z.uuid();
const requestIdArgsSchema = z.object({ requestId: requestIdSchema });

/** `http:fetch`: the request and the id `http:cancel` names it by; `progress` asks for `http:progress` events. */
export const httpFetchArgsSchema = bridgeRequestSchema.extend({ requestId: requestIdSchema, progress: z.boolean().optional() });

/** How far a request's body went out (`upload`) or its answer came in (`download`); total null when unknown. */
export const transferProgressSchema = z.object({
  direction: z.enum(['upload', 'download']),
  loaded: z.number().int().min(0),
  total: z.number().int().min(0).nullable(),
});
export type TransferProgress = z.infer<typeof transferProgressSchema>;

export const chatStartArgsSchema = z.object({
  requestId: requestIdSchema,
  chatbotId: z.number().int().positive(),
  body: chatBodySchema,
});

/** What happens on a running chat stream, per request id. */
export const chatStreamEventSchema = z.object({
  requestId: requestIdSchema,
  event: z.discriminatedUnion('type', [
    z.object({ type: z.literal('frame'), frame: chatFrameSchema }),
    z.object({ type: z.literal('done') }),
    z.object({ type: z.literal('failed'), status: z.number().int(), body: errorBodySchema.nullable() }),
  ]),
});
export type ChatStreamEvent = z.infer<typeof chatStreamEventSchema>;

export const sessionEndReasonSchema = z.enum(SESSION_END_REASONS);
export type { SessionEndReason };

export const storageStatusSchema = z.object({
  /** 'keychain': tokens survive a restart; 'memory': no keychain, the session ends with the app. */
  storage: z.enum(['keychain', 'memory', 'unknown']),
});

const ok = z.object({ ok: z.literal(true) });

/** Every invoke channel with the schema main parses its argument with and the schema of its value. */
export const invokeContract = {
  'http:fetch': { args: httpFetchArgsSchema, result: bridgeResponseSchema },
  'http:cancel': { args: requestIdArgsSchema, result: ok },
  'session:signIn': { args: signInBodySchema, result: memberSchema },
  'session:ssoSignIn': { args: ssoSignInBodySchema.pick({ code: true, sso_platform_id: true }), result: memberSchema },
  'session:restore': { args: noArgs, result: memberSchema.nullable() },
  'session:signOut': { args: noArgs, result: ok },
  'session:storageStatus': { args: noArgs, result: storageStatusSchema },
  'chat:start': { args: chatStartArgsSchema, result: chatMetaSchema },
  'chat:cancel': { args: requestIdArgsSchema, result: ok },
  'settings:get': { args: noArgs, result: desktopSettingsSchema },
  'settings:set': { args: desktopSettingsPatchSchema, result: desktopSettingsSchema },
  'window:openAdmin': { args: noArgs, result: ok },
  'shell:openExternal': { args: z.object({ url: z.url({ protocol: /^https?$/ }) }), result: ok },
  /** OpenID Connect in the system browser (RFC 8252): the code and verifier for `POST /sso-platforms/:id/verify/`. */
  'sso:authorize': { args: z.object({ sso_platform_id: idSchema }), result: ssoOidcCallbackSchema },
} as const satisfies Record<InvokeChannel, { args: z.ZodType; result: z.ZodType }>;

export const eventContract = {
  'session:ended': z.object({ reason: sessionEndReasonSchema }),
  'session:storageUnavailable': z.object({}),
  'chat:stream': chatStreamEventSchema,
  'http:progress': transferProgressSchema.extend({ requestId: requestIdSchema }),
} as const satisfies Record<EventChannel, z.ZodType>;

/**
 * Every invoke answers with a result instead of throwing: Electron flattens thrown errors into a
 * message string, and the renderer needs the status and body to build the same ApiError as the web.
 */
export const ipcFailureSchema = z.object({ status: z.number().int(), body: errorBodySchema.nullable() });
export type IpcFailure = z.infer<typeof ipcFailureSchema>;
export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcFailure };

export type InvokeArgs<C extends InvokeChannel> = z.input<(typeof invokeContract)[C]['args']>;
export type InvokeArgsParsed<C extends InvokeChannel> = z.output<(typeof invokeContract)[C]['args']>;
export type InvokeValue<C extends InvokeChannel> = z.output<(typeof invokeContract)[C]['result']>;
export type EventPayload<C extends EventChannel> = z.output<(typeof eventContract)[C]>;

type DomainOf<C extends string> = C extends `${infer D}:${string}` ? D : never;
type InvokeMethod<C extends InvokeChannel> = (
  ...args: undefined extends InvokeArgs<C> ? [args?: InvokeArgs<C>] : [args: InvokeArgs<C>]
) => Promise<IpcResult<InvokeValue<C>>>;
type EventMethod<C extends EventChannel> = (listener: (payload: EventPayload<C>) => void) => () => void;

/** `window.bridge`: one object per domain with its invoke methods and `on<Event>` subscribers. */
export type Bridge = {
  readonly [D in DomainOf<InvokeChannel | EventChannel>]: {
    readonly [C in InvokeChannel as C extends `${D}:${infer A}` ? A : never]: InvokeMethod<C>;
  } & {
    readonly [C in EventChannel as C extends `${D}:${infer A}` ? `on${Capitalize<A>}` : never]: EventMethod<C>;
  };
};
