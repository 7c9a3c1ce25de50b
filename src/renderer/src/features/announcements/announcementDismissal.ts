/**
 * Which announcements a user closed, per tenant. The popup checks two stores: localStorage for
 * "don't show this again" (kept for good) and sessionStorage for a plain close (gone when the
 * browser session ends, so the announcement comes back next time). Pure over a storage-like
 * object, so the e2e tests can pre-dismiss with the same format.
 */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** Enough for every announcement a user plausibly meets; older ids are dropped first. */
const MAX_REMEMBERED_IDS = 50;

export const dismissedAnnouncementsKey = (subdomain: string) => `dismissed-announcements:${subdomain}`;

function readIds(store: KeyValueStore, subdomain: string): number[] {
  try {
    const parsed: unknown = JSON.parse(store.getItem(dismissedAnnouncementsKey(subdomain)) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((id): id is number => Number.isInteger(id)) : [];
  } catch {
    return []; // a value written by hand or an older format: treat as nothing dismissed
  }
}

export function isAnnouncementDismissed(store: KeyValueStore, subdomain: string, announcementId: number): boolean {
  return readIds(store, subdomain).includes(announcementId);
}

export function dismissAnnouncement(store: KeyValueStore, subdomain: string, announcementId: number): void {
  const ids = [...readIds(store, subdomain).filter((id) => id !== announcementId), announcementId].slice(-MAX_REMEMBERED_IDS);
  store.setItem(dismissedAnnouncementsKey(subdomain), JSON.stringify(ids));
}
