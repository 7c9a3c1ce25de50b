import { ApiError } from '../../shared/api';
import { INVOKE_CHANNELS, type InvokeChannel } from '../../shared/ipc/channels';
import { invokeContract, type InvokeArgsParsed, type InvokeValue, type IpcResult } from '../../shared/ipc/contract';

/** The parts of Electron's IpcMainInvokeEvent main relies on. */
export interface InvokeEvent {
  sender: { id: number; send(channel: string, payload: unknown): void };
  senderFrame: { url: string; parent: unknown } | null;
}

export interface IpcMainLike {
  handle(channel: string, listener: (event: InvokeEvent, ...args: unknown[]) => unknown): void;
}

export type InvokeHandlers = {
  [C in InvokeChannel]: (args: InvokeArgsParsed<C>, event: InvokeEvent) => Promise<InvokeValue<C>> | InvokeValue<C>;
};

/** `scheme://host[:port]` of a URL; WHATWG gives custom schemes an opaque "null" origin. */
export function originOf(url: string): string | null {
  if (!URL.canParse(url)) return null;
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}`;
}

/**
 * Accepts only the top frame of one of our own windows showing our own page: a remote page that
 * somehow loaded, an iframe or another webContents gets no answer.
 */
export function createSenderGuard(options: { trustedOrigins: readonly string[]; isOwnWebContents: (id: number) => boolean }) {
  return (event: InvokeEvent): boolean => {
    const frame = event.senderFrame;
    if (!frame || frame.parent) return false;
    const origin = originOf(frame.url);
    return origin !== null && options.trustedOrigins.includes(origin) && options.isOwnWebContents(event.sender.id);
  };
}

/** The same status and body an HTTP failure carries on the web (status 0: network failure). */
function failure(channel: string, error: unknown): IpcResult<never> {
  if (error instanceof ApiError) return { ok: false, error: { status: error.status, body: error.body } };
  console.error(`${channel} failed`, error);
  return { ok: false, error: { status: 500, body: { code: 'internal_error', message: 'The desktop app failed to handle the request' } } };
}

/**
 * Registers every invoke channel of the contract. Each call is checked in this order: the sender
 * must be our page (else the invoke rejects), the argument must parse with the channel's zod schema
 * (else a 400 result), then the handler runs and its outcome is wrapped in an IpcResult.
 */
export function registerInvokeHandlers(ipcMain: IpcMainLike, handlers: InvokeHandlers, isTrustedSender: (event: InvokeEvent) => boolean): void {
  for (const channel of INVOKE_CHANNELS) {
    const handler = handlers[channel] as (args: unknown, event: InvokeEvent) => unknown;
    ipcMain.handle(channel, async (event, ...rawArgs): Promise<IpcResult<unknown>> => {
      if (!isTrustedSender(event)) throw new Error(`${channel}: refused, the sender is not this app's page`);
      const parsed = invokeContract[channel].args.safeParse(rawArgs[0]);
      if (rawArgs.length > 1 || !parsed.success) {
        return { ok: false, error: { status: 400, body: { code: 'bad_request', message: `${channel}: invalid arguments` } } };
      }
      try {
        return { ok: true, value: await handler(parsed.data, event) };
      } catch (error) {
        return failure(channel, error);
      }
    });
  }
}
