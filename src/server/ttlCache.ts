/**
 * An in-process cache whose entries expire `ttlMs` after they were loaded. It stores the load's
 * promise, so concurrent misses of one key share a single query; a failed load is not kept.
 * A ttl of 0 disables it (every get loads). Oldest entries are dropped beyond `maxEntries`.
 */
export function createTtlCache<K, V>(ttlMs: number, maxEntries = 10_000) {
  const entries = new Map<K, { value: Promise<V>; expiresAt: number }>();

  function get(key: K, load: () => Promise<V>): Promise<V> {
    if (ttlMs <= 0) return load();
    const now = Date.now();
    const cached = entries.get(key);
    if (cached && cached.expiresAt > now) return cached.value;
    entries.delete(key);
    if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as K);
    const value = load();
    entries.set(key, { value, expiresAt: now + ttlMs });
    value.catch(() => {
      if (entries.get(key)?.value === value) entries.delete(key);
    });
    return value;
  }

  return {
    get,
    delete: (key: K) => void entries.delete(key),
  };
}
