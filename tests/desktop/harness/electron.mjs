// What `import … from 'electron'` gives the desktop bundle's main under the harness: the adapter of
// the app run that imported it (tests/desktop/harness/desktopApp.ts resolves 'electron' here, one
// URL per run, so a restarted app gets a fresh adapter).
const run = new URL(import.meta.url).searchParams.get('run');
const electron = globalThis[Symbol.for('chatbot-platform.desktop-harness')].runs.get(run);
export const { app, BrowserWindow, ipcMain, net, protocol, screen, session, shell } = electron;
export default electron;
