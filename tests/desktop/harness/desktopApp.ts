import { registerHooks } from 'node:module';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { expect, type Browser, type Page } from '@playwright/test';
import { createElectronAdapter, type ElectronAdapter, type HarnessHost } from './electronAdapter';

const root = fileURLToPath(new URL('../../../', import.meta.url));
/** The desktop build's main (`npm run build:desktop`): the bundle the installers ship, run as it is. */
export const MAIN_BUNDLE = pathToFileURL(`${root}out/main/index.js`).href;
const SHIM = new URL('./electron.mjs', import.meta.url).href;
const GLOBAL = Symbol.for('chatbot-platform.desktop-harness');

interface HarnessGlobal {
  runs: Map<string, ElectronAdapter['electron']>;
}
const harnessGlobal = ((globalThis as unknown as Record<symbol, HarnessGlobal>)[GLOBAL] ??= { runs: new Map() });

let hooked = false;
/**
 * `electron`, imported by the main bundle of run N, resolves to the shim of run N (each run imports
 * the bundle afresh under its own URL, `index.js?run=N`, as a restarted app would load it).
 */
function resolveElectronToAdapter(): void {
  if (hooked) return;
  hooked = true;
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const parent = context.parentURL ? new URL(context.parentURL) : null;
      if (specifier === 'electron' && parent && parent.href.split('?')[0] === MAIN_BUNDLE) {
        return { url: `${SHIM}?run=${parent.searchParams.get('run')}`, shortCircuit: true, format: 'module' };
      }
      return nextResolve(specifier, context);
    },
  });
}

let preloadScript: Promise<string> | null = null;
/** The preload stand-in as one script for the page, built from the same buildBridge and channel list. */
function bundledPreload(): Promise<string> {
  preloadScript ??= build({
    entryPoints: [fileURLToPath(new URL('./preload.ts', import.meta.url))],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'chrome120',
  }).then((result) => result.outputFiles[0]!.text);
  return preloadScript;
}

export interface DesktopApp {
  adapter: ElectronAdapter;
  /** The member window's page, once main opened it and loaded its first route. */
  mainWindow(): Promise<Page>;
  /** The page of the window main opened after those handed out so far (the admin console). */
  nextWindow(): Promise<Page>;
  /** Closes every window, as quitting does; main's state is written by then. */
  quit(): Promise<void>;
}

let runs = 0;

/** Starts the desktop app: the built main bundle under the adapter, with `host` as the operating system. */
export async function startDesktopApp(options: Omit<HarnessHost, 'preloadScript'> & { browser: Browser }): Promise<DesktopApp> {
  if (!existsSync(fileURLToPath(MAIN_BUNDLE))) throw new Error('No desktop build: run `npm run build:desktop` first');
  resolveElectronToAdapter();
  const adapter = createElectronAdapter({ ...options, preloadScript: await bundledPreload() });
  const run = String(++runs);
  harnessGlobal.runs.set(run, adapter.electron);
  const failed = new Promise<never>((_, reject) => adapter.electron.app.once('exit-requested', (code) => reject(new Error(`main exited with ${code}`))));
  failed.catch(() => undefined);

  // Each window's page is handed out once: mainWindow() the first, nextWindow() each later one.
  const handedOut = new Set<Page>();
  const windowOpened = async (): Promise<Page> => {
    const fresh = () => adapter.windows().find((window) => window.page && !handedOut.has(window.page))?.page;
    await Promise.race([expect.poll(() => fresh() !== undefined, { message: 'main opens a window', timeout: 15_000 }).toBe(true), failed]);
    const page = fresh()!;
    handedOut.add(page);
    await page.waitForLoadState('domcontentloaded');
    return page;
  };

  await import(`${MAIN_BUNDLE}?run=${run}`);
  return {
    adapter,
    mainWindow: windowOpened,
    nextWindow: windowOpened,
    async quit() {
      for (const window of adapter.windows()) window.close();
      while (adapter.windows().length) await new Promise((resolve) => setTimeout(resolve, 20));
      await (await adapter.context()).close();
      harnessGlobal.runs.delete(run);
    },
  };
}
