import { z } from 'zod';
import { createJsonFile } from '../settings/jsonFile';

export const MIN_WINDOW_WIDTH = 480;
export const MIN_WINDOW_HEIGHT = 360;

const boundsSchema = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().min(MIN_WINDOW_WIDTH).max(20_000),
  height: z.number().int().min(MIN_WINDOW_HEIGHT).max(20_000),
  maximized: z.boolean(),
});
export type WindowBounds = z.infer<typeof boundsSchema>;

const windowStateSchema = z.object({ main: boundsSchema.optional(), admin: boundsSchema.optional() });
export type WindowKind = keyof z.infer<typeof windowStateSchema>;

export interface Rectangle {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** At least this much of the title bar must be on a screen, or the window would be unreachable. */
const VISIBLE_MARGIN = 64;

function isReachable(bounds: Rectangle, workAreas: Rectangle[]): boolean {
  return workAreas.some(
    (area) =>
      bounds.x + bounds.width - VISIBLE_MARGIN >= area.x &&
      bounds.x + VISIBLE_MARGIN <= area.x + area.width &&
      bounds.y >= area.y &&
      bounds.y + VISIBLE_MARGIN <= area.y + area.height,
  );
}

/**
 * Size and position of each window kind (`window-state.json` in userData), restored on the next
 * start. A position that no longer falls on any screen (a monitor was unplugged) is dropped and the
 * OS centres the window at the remembered size.
 */
export async function createWindowStateStore(path: string) {
  const file = createJsonFile(path, windowStateSchema, () => ({}));
  let state = await file.read();

  return {
    restore(kind: WindowKind, workAreas: Rectangle[]): { bounds: Partial<Rectangle>; maximized: boolean } | null {
      const saved = state[kind];
      if (!saved) return null;
      const { maximized, ...bounds } = saved;
      return isReachable(bounds, workAreas) ? { bounds, maximized } : { bounds: { width: bounds.width, height: bounds.height }, maximized };
    },
    async remember(kind: WindowKind, bounds: Rectangle, maximized: boolean): Promise<void> {
      const parsed = boundsSchema.safeParse({ ...bounds, maximized });
      if (!parsed.success) return;
      state = { ...state, [kind]: parsed.data };
      await file.write(state);
    },
  };
}

export type WindowStateStore = Awaited<ReturnType<typeof createWindowStateStore>>;
