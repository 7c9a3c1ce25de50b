import { z } from 'zod';
import { desktopSettingsPatchSchema, desktopSettingsSchema, type DesktopSettings } from '../../shared/ipc/contract';
import { createJsonFile } from './jsonFile';

/**
 * Server and workspace of the desktop app (`settings.json` in userData). Until the user
 * confirms them on first run, `configured` is false and the API base is the build's default.
 */
export async function createSettingsStore(path: string, defaultApiBase: string) {
  const defaults = (): DesktopSettings => ({ apiBase: defaultApiBase.replace(/\/+$/, ''), subdomain: null, configured: false });
  const file = createJsonFile(path, desktopSettingsSchema, defaults);
  let current = await file.read();

  return {
    get: (): DesktopSettings => current,
    async update(patch: z.output<typeof desktopSettingsPatchSchema>): Promise<DesktopSettings> {
      current = desktopSettingsSchema.parse({ ...current, ...patch, configured: true });
      await file.write(current);
      return current;
    },
  };
}

export type SettingsStore = Awaited<ReturnType<typeof createSettingsStore>>;
