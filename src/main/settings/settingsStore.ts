import { z } from 'zod';
import { apiBaseSchema, desktopSettingsPatchSchema, desktopSettingsSchema, type DesktopSettings } from '../../shared/ipc/contract';
import { createJsonFile } from './jsonFile';

/**
 * Server and workspace of the desktop app (`settings.json` in userData). Until the user
 * confirms them on first run, `configured` is false and the API base is the build's default.
 * Every API base, the default included, passes `apiBaseSchema` (https, or http on loopback only);
 * a stored one that does not (a file edited by hand, an older version) sends the user back to setup.
 */
export async function createSettingsStore(path: string, defaultApiBase: string) {
  const checkedDefault = apiBaseSchema.safeParse(defaultApiBase);
  if (!checkedDefault.success) throw new Error(`Default API base ${defaultApiBase} refused: ${checkedDefault.error.issues[0]?.message}`);
  const defaults = (): DesktopSettings => ({ apiBase: checkedDefault.data, subdomain: null, configured: false });
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
