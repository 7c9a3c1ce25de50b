/** Loads the app afresh at `path`, so the session is resumed against the newly chosen server. */
export function reloadApp(path: string): void {
  window.location.assign(path);
}
