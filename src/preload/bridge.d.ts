import type { Bridge } from '../shared/ipc/contract';

declare global {
  interface Window {
    /** Present only inside the desktop app; reach it through src/renderer/src/platform. */
    readonly bridge?: Bridge;
  }
}

export {};
