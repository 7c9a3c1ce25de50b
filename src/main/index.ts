import { join } from 'node:path';
import { app, BrowserWindow, ipcMain, net, protocol, screen, session, shell } from 'electron';
import keytar from 'keytar';
import { API_PREFIX } from '../shared/domain/http';
import { APP_ID, PRODUCT_NAME } from './appIdentity';
import { createAuthSession } from './auth/authSession';
import { createSsoBrowserFlow } from './auth/ssoBrowserFlow';
import { createSessionFailureReporter } from './auth/sessionFailureReporter';
import { createChatProxy } from './chat/chatProxy';
import { createBridgeFetch } from './http/bridgeFetch';
import { createInvokeHandlers } from './ipc/invokeHandlers';
import { createSenderGuard, originOf, registerInvokeHandlers } from './ipc/registerInvokeHandlers';
import { createKeytarSecretStore, keychainServiceName } from './keychain/secretStore';
import { createTokenVault } from './keychain/tokenVault';
import { createSettingsStore } from './settings/settingsStore';
import { APP_ORIGIN, APP_SCHEME, APP_SCHEME_PRIVILEGES, createAppProtocolHandler } from './windows/appProtocol';
import { contentSecurityPolicy, hardenWebContents, isWebLink } from './windows/security';
import { createWindowManager } from './windows/windowManager';
import { createWindowStateStore } from './windows/windowState';

/** Set by electron-vite in `npm run dev:desktop`; absent in a packaged or built app. */
const devServerUrl = !app.isPackaged ? (process.env.ELECTRON_RENDERER_URL ?? null) : null;
const isDev = devServerUrl !== null;
const appOrigin = devServerUrl ? (originOf(devServerUrl) ?? APP_ORIGIN) : APP_ORIGIN;
/** First-run default server: a local reference server, or CHATBOT_API_BASE when set. */
const defaultApiBase = process.env.CHATBOT_API_BASE ?? `http://localhost:3000${API_PREFIX}`;

app.setAppUserModelId(APP_ID);
app.enableSandbox();
protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);

async function start(): Promise<void> {
  const userData = app.getPath('userData');
  const settings = await createSettingsStore(join(userData, 'settings.json'), defaultApiBase);
  const windowState = await createWindowStateStore(join(userData, 'window-state.json'));
  const csp = () => contentSecurityPolicy({ apiOrigin: originOf(settings.get().apiBase), devServerOrigin: devServerUrl ? appOrigin : null });

  const windows = createWindowManager({
    BrowserWindow,
    windowState,
    workAreas: () => screen.getAllDisplays().map((display) => display.workArea),
    preloadPath: join(import.meta.dirname, '../preload/index.cjs'),
    appOrigin,
    isDev,
    iconPath: join(import.meta.dirname, '../../resources/icon.png'),
    title: PRODUCT_NAME,
    needsSetup: () => !settings.get().configured,
  });

  // The renderer needs no camera, notifications, geolocation… so every permission is refused.
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  if (devServerUrl) {
    session.defaultSession.webRequest.onHeadersReceived({ urls: [`${appOrigin}/*`] }, (details, callback) => {
      callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [csp()] } });
    });
  } else {
    protocol.handle(APP_SCHEME, createAppProtocolHandler({ rendererDir: join(import.meta.dirname, '../renderer'), contentSecurityPolicy: csp }));
  }

  const vault = createTokenVault(createKeytarSecretStore(keytar), () => windows.broadcast('session:storageUnavailable', {}));
  // Main keeps credentials out of the session's cookie jar: tokens travel in headers and bodies only.
  const mainFetch = (url: string, init: RequestInit) => net.fetch(url, { ...init, credentials: 'omit' });
  const authSession = createAuthSession({
    fetch: mainFetch,
    settings: settings.get,
    vault,
    serviceName: ({ apiBase, subdomain }) => keychainServiceName(APP_ID, apiBase, subdomain),
    onEnded: (reason) => windows.broadcast('session:ended', { reason }),
    onCallFailure: createSessionFailureReporter({ fetch: mainFetch, userAgent: session.defaultSession.getUserAgent() }),
  });
  const apiBase = () => settings.get().apiBase;
  const chatProxy = createChatProxy(authSession, apiBase);
  const bridgeFetch = createBridgeFetch(authSession, apiBase);

  const openExternal = (url: string) => (isWebLink(url) ? shell.openExternal(url) : Promise.resolve());
  const isAppUrl = (url: string) => originOf(url) === appOrigin;
  app.on('web-contents-created', (_event, contents) => {
    hardenWebContents(contents, { isAppUrl, openExternal: (url) => void openExternal(url) });
    contents.on('destroyed', () => {
      chatProxy.cancelAllOf(contents.id);
      bridgeFetch.cancelAllOf(contents.id);
    });
  });

  registerInvokeHandlers(
    ipcMain,
    createInvokeHandlers({
      session: authSession,
      chatProxy,
      bridgeFetch,
      settings,
      vault,
      openAdminWindow: windows.openAdmin,
      openExternal,
      ssoFlow: createSsoBrowserFlow({ post: authSession.postPublic, openExternal }),
    }),
    createSenderGuard({ trustedOrigins: [appOrigin], isOwnWebContents: windows.isOwnWebContents }),
  );

  app.on('second-instance', () => windows.openMain());
  app.on('activate', () => windows.openMain());
  windows.openMain();
}

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

// A second launch only focuses the running app (see 'second-instance' above).
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      console.error('Desktop app failed to start', error);
      app.exit(1);
    });
}
