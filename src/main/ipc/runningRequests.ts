import { ApiError } from '../../shared/api';

/** One registered request: its signal for the network call, and `end` once it is over. */
export interface RunningRequest {
  signal: AbortSignal;
  abort(): void;
  end(): void;
}

/**
 * The AbortControllers of the requests windows started through main, keyed by the sender's
 * webContents id and the renderer's request id: a window can cancel only its own requests, and a
 * closed window's requests all stop.
 */
export function createRunningRequests() {
  const running = new Map<string, AbortController>();
  const keyOf = (senderId: number, requestId: string) => `${senderId}:${requestId}`;

  return {
    /** Registers a request; 409 while this sender already runs one under the same id. */
    begin(senderId: number, requestId: string): RunningRequest {
      const key = keyOf(senderId, requestId);
      if (running.has(key)) throw new ApiError(409, { code: 'conflict', message: 'This request id is already running' });
      const controller = new AbortController();
      running.set(key, controller);
      return {
        signal: controller.signal,
        abort: () => controller.abort(),
        end: () => {
          if (running.get(key) === controller) running.delete(key);
        },
      };
    },

    cancel(senderId: number, requestId: string): void {
      running.get(keyOf(senderId, requestId))?.abort();
    },

    /** A window closed or reloaded: stop everything it started. */
    cancelAllOf(senderId: number): void {
      for (const [key, controller] of running) if (key.startsWith(`${senderId}:`)) controller.abort();
    },
  };
}

export type RunningRequests = ReturnType<typeof createRunningRequests>;
