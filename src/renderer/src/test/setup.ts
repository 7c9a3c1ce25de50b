import '@testing-library/jest-dom/vitest';
import { afterEach, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { i18next, initI18n } from '../i18n';
import { useUserSession } from '../stores/userSession';

// findBy/waitFor wait up to 1 s by default: too tight for jsdom + Mantine on a loaded 2-core machine
// (the test timeout is already raised for the same reason in vitest.config.ts).
configure({ asyncUtilTimeout: 10_000 });

// Toasts live in a module-level store: start every test without the previous test's toasts. A test
// that stops the clock gives it back, so the next test (or file) runs on real time.
afterEach(() => {
  cleanup();
  notifications.clean();
  vi.useRealTimers();
});

// The files of a worker share its modules and its jsdom (vitest.config.ts): each file starts from
// what a fresh page has, without the previous file's stored session or language.
localStorage.clear();
sessionStorage.clear();
useUserSession.setState({ member: null, language: null });

// jsdom lacks the layout APIs Mantine and the session list use.
window.matchMedia ??= vi.fn().mockImplementation((query: string) => ({
  matches: false,
  media: query,
  onchange: null,
  addListener: vi.fn(),
  removeListener: vi.fn(),
  addEventListener: vi.fn(),
  removeEventListener: vi.fn(),
  dispatchEvent: vi.fn(),
}));

class NoopObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
  takeRecords() {
    return [];
  }
}
globalThis.ResizeObserver ??= NoopObserver as unknown as typeof ResizeObserver;
globalThis.IntersectionObserver ??= NoopObserver as unknown as typeof IntersectionObserver;
Element.prototype.scrollIntoView ??= vi.fn();
// Mantine's autosize Textarea listens for web-font loads.
if (!('fonts' in document)) Object.defineProperty(document, 'fonts', { value: { addEventListener() {}, removeEventListener() {} } });

// Screens under test read English strings at once: outside the first screen's namespaces they are
// lazy in the app (i18n), so tests bundle them all up front.
initI18n('en');
for (const [path, module] of Object.entries(import.meta.glob<{ default: object }>('../i18n/locales/en/*.json', { eager: true }))) {
  const namespace = /\/([^/]+)\.json$/.exec(path)?.[1];
  if (namespace) i18next.addResourceBundle('en', namespace, module.default, true, true);
}

// Likewise the error messages of every endpoint, which the app loads with the first lazy route.
await import('../api/errorCatalog');
