import { createDesktopPlatform } from './desktop';
import { sendFailureReport } from './failureReport';
import type { Platform } from './types';
import { createWebPlatform } from './web';

export type { Platform, SessionEndReason, ClientSettings, ChatStreamRequest } from './types';

let platform: Platform | null = null;

/** The desktop implementation inside Electron (the preload exposes `window.bridge`), else the web one. */
export function getPlatform(): Platform {
  platform ??= window.bridge
    ? createDesktopPlatform(window.bridge)
    : createWebPlatform({ onSessionCallFailure: (failure) => sendFailureReport(getPlatform(), { ...failure, requestBody: undefined }) });
  return platform;
}

/** Tests swap in a platform built around a fake network. */
export function setPlatformForTests(replacement: Platform | null): void {
  platform = replacement;
}
