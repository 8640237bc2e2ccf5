/**
 * One log line per upstream entity the shop leaves out: a content page, a
 * sleep-content entry, a product, a brand or a category whose path the route table refuses
 * (`src/lib/shop-routes.ts`), or a picture that cannot be fetched. The line names the entity's
 * kind, id and the reason, on stderr whatever the log level (a build prints it, like its other
 * summary lines), once per process for each entity and reason: a read repeated every minute
 * does not repeat it.
 */

/** Lines remembered (then forgotten all at once): enough for a catalogue's worth of refusals. */
const MAX_REMEMBERED = 10_000;
// One set per process: a build loads this module twice (Node's copy reads the catalogue,
// Vite's bundle the layout), and each would log the same category.
const SLOT = Symbol.for('literie.refused-lines');
const holder = globalThis as typeof globalThis & { [SLOT]?: Set<string> };
const told = (holder[SLOT] ??= new Set<string>());

export type RefusedSink = (line: string) => void;

const stderr: RefusedSink = (line) => {
  console.warn(line);
};

/** The log line of a refused entity. */
export function refusedLine(kind: string, id: string | number, reason: string): string {
  return `[refused] ${kind} ${String(id)} left out: ${reason}`;
}

/** Logs that `kind` `id` is left out because of `reason` (once per process). */
export function logRefused(
  kind: string,
  id: string | number,
  reason: string,
  sink: RefusedSink = stderr,
): void {
  const line = refusedLine(kind, id, reason);
  if (told.has(line)) return;
  if (told.size >= MAX_REMEMBERED) told.clear();
  told.add(line);
  sink(line);
}
