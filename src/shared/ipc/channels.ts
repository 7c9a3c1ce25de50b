/**
 * The names of every IPC channel, `domain:action`. Kept free of zod so the sandboxed preload can
 * build `window.bridge` from this list alone; `contract.ts` gives each name its schemas.
 */
export const INVOKE_CHANNELS = [
  'http:fetch',
  'http:cancel',
  'session:signIn',
  'session:ssoSignIn',
  'session:restore',
  'session:signOut',
  'session:storageStatus',
  'chat:start',
  'chat:cancel',
  'settings:get',
  'settings:set',
  'window:openAdmin',
  'shell:openExternal',
  'sso:authorize',
] as const;

/** Main → renderer notifications. */
export const EVENT_CHANNELS = ['session:ended', 'session:storageUnavailable', 'chat:stream', 'http:progress'] as const;

export type InvokeChannel = (typeof INVOKE_CHANNELS)[number];
export type EventChannel = (typeof EVENT_CHANNELS)[number];

/** `session:signIn` → ['session', 'signIn']. */
export function splitChannel(channel: string): [domain: string, action: string] {
  const [domain = '', action = ''] = channel.split(':');
  return [domain, action];
}

/** The bridge method that subscribes to an event channel: `session:ended` → `onEnded`. */
export function eventMethodName(action: string): string {
  return `on${action.charAt(0).toUpperCase()}${action.slice(1)}`;
}
