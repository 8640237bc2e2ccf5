/**
 * A bounded memory for pure functions of a request's target, which hot URLs ask again and
 * again (the server's route and render keys, the render cache's full keys): the answers for
 * the last 10,000 names of up to 512 characters (longer ones are not the hot ones), all
 * forgotten at once when full.
 */
export interface Remembered<T> {
  /** What `compute` said the first time `name` was asked (asked now if never). */
  get(name: string, compute: () => T): T;
  /** Forgets every answer (what they were computed from changed). */
  clear(): void;
}

/** Most names kept, and the longest name kept. */
const MAX_NAMES = 10_000;
const MAX_NAME_LENGTH = 512;

export function remembered<T>(): Remembered<T> {
  const known = new Map<string, T>();
  return {
    get(name, compute) {
      let value = known.get(name);
      if (value === undefined) {
        value = compute();
        if (name.length > MAX_NAME_LENGTH) return value;
        if (known.size >= MAX_NAMES) known.clear();
        known.set(name, value);
      }
      return value;
    },
    clear() {
      known.clear();
    },
  };
}
