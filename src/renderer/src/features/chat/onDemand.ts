/**
 * Modules the chat's markdown loads the first time an answer needs them (highlight.js grammars,
 * KaTeX): rendering asks with `loadOnDemand`, gets null while the chunk is on its way, and renders
 * again once `subscribeOnDemand` reports that something arrived.
 */
const listeners = new Set<() => void>();
let arrivals = 0;

/**
 * A getter for the module `load` imports: the module once it has arrived, else null (the first call
 * starts the import). `onArrival` runs before the listeners hear of it. A chunk that failed to load
 * (offline) is tried again by the next call.
 */
export function loadOnDemand<T>(load: () => Promise<T>, onArrival?: (module: T) => void): () => T | null {
  let module: T | null = null;
  let loading = false;
  return () => {
    if (module === null && !loading) {
      loading = true;
      load().then(
        (loaded) => {
          onArrival?.(loaded);
          module = loaded;
          arrivals += 1;
          for (const listener of listeners) listener();
        },
        () => {
          loading = false;
        },
      );
    }
    return module;
  };
}

/** For useSyncExternalStore: `onDemandArrivals` changes each time a module arrives. */
export function subscribeOnDemand(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const onDemandArrivals = () => arrivals;
