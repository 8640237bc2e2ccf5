/**
 * Link resolution of a Content Delivery API list reply: every `{ sys: { type: 'Link',
 * linkType: 'Entry' | 'Asset', id } }` in the items' fields (arrays, rich-text `data.target`
 * included) is replaced by the entry or asset it names, looked up in `items`,
 * `includes.Entry` and `includes.Asset`. A link that cannot be resolved (its target
 * unpublished and listed in `errors`, or simply absent) is dropped: removed from its array, or
 * its property removed; nothing crashes. Each entry is resolved once and shared, so a graph
 * with cycles resolves in bounded time (and stays cyclic: map it to domain types before it
 * is serialised). Malformed entries and assets are skipped. Asset URLs that are
 * protocol-relative (`//images.ctfassets.net/...`) get the API's scheme.
 */
import { AssetSchema, EntrySchema, type Asset, type Collection, type Entry } from './schemas.ts';

/** An entry whose link fields hold the resolved entries and assets. */
export interface ResolvedEntry {
  sys: Entry['sys'];
  metadata: Entry['metadata'];
  fields: Record<string, unknown>;
}

/** An asset with an absolute file URL (when it had one). */
export type ResolvedAsset = Asset;

export interface ResolveOptions {
  /** Scheme given to protocol-relative asset URLs (the API's: `https:`, or `http:` for the sandbox). */
  scheme: 'https:' | 'http:';
}

/** Deepest nesting of a field value walked (rich text included); deeper values are dropped. */
const MAX_VALUE_DEPTH = 64;

const DROP = Symbol('drop');

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function linkOf(value: Record<string, unknown>): { linkType: string; id: string } | null {
  const sys = value.sys;
  if (!isRecord(sys) || sys.type !== 'Link') return null;
  return typeof sys.linkType === 'string' && typeof sys.id === 'string'
    ? { linkType: sys.linkType, id: sys.id }
    : null;
}

/** An asset URL made absolute: `//host/path` gets `scheme`; others are kept as they are. */
export function absoluteAssetUrl(url: string, scheme: 'https:' | 'http:'): string {
  const text = url.trim();
  return text.startsWith('//') ? `${scheme}${text}` : text;
}

/**
 * A resolver over one reply: `resolve(entry)` gives the resolved copy of an entry of the
 * reply. Use `resolveCollection` for the items.
 */
export function createResolver(
  reply: Pick<Collection, 'items' | 'includes'>,
  options: ResolveOptions,
) {
  const entries = new Map<string, Entry>();
  const assets = new Map<string, Asset>();
  // Included entries first: an item (the reply's own, maybe fuller copy) wins.
  for (const raw of [...(reply.includes?.Entry ?? []), ...reply.items]) {
    const parsed = EntrySchema.safeParse(raw);
    if (parsed.success) entries.set(parsed.data.sys.id, parsed.data);
  }
  for (const raw of reply.includes?.Asset ?? []) {
    const parsed = AssetSchema.safeParse(raw);
    if (parsed.success) assets.set(parsed.data.sys.id, parsed.data);
  }

  const resolvedEntries = new Map<string, ResolvedEntry>();
  const resolvedAssets = new Map<string, ResolvedAsset>();

  function asset(id: string): ResolvedAsset | undefined {
    const done = resolvedAssets.get(id);
    if (done !== undefined) return done;
    const raw = assets.get(id);
    if (raw === undefined) return undefined;
    const file = raw.fields.file;
    const resolved: ResolvedAsset =
      file === undefined
        ? raw
        : {
            ...raw,
            fields: {
              ...raw.fields,
              file: { ...file, url: absoluteAssetUrl(file.url, options.scheme) },
            },
          };
    resolvedAssets.set(id, resolved);
    return resolved;
  }

  function entry(id: string): ResolvedEntry | undefined {
    const done = resolvedEntries.get(id);
    if (done !== undefined) return done;
    const raw = entries.get(id);
    if (raw === undefined) return undefined;
    const resolved: ResolvedEntry = { sys: raw.sys, metadata: raw.metadata, fields: {} };
    // Registered before its fields are walked: a link back to it (a cycle) finds it.
    resolvedEntries.set(id, resolved);
    for (const [name, value] of Object.entries(raw.fields)) {
      const walked = walk(value, 0);
      if (walked !== DROP) resolved.fields[name] = walked;
    }
    return resolved;
  }

  function walk(value: unknown, depth: number): unknown {
    if (depth > MAX_VALUE_DEPTH) return DROP;
    if (Array.isArray(value)) {
      const items: unknown[] = [];
      for (const item of value) {
        const walked = walk(item, depth + 1);
        if (walked !== DROP) items.push(walked);
      }
      return items;
    }
    if (!isRecord(value)) return value;
    const link = linkOf(value);
    if (link !== null) {
      if (link.linkType === 'Entry') return entry(link.id) ?? DROP;
      if (link.linkType === 'Asset') return asset(link.id) ?? DROP;
      // Links to tags, content types, spaces... are data, not content.
      return value;
    }
    const result: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const walked = walk(item, depth + 1);
      if (walked !== DROP) result[key] = walked;
    }
    return result;
  }

  return { entry, asset };
}

/** The reply's items, resolved, in order (malformed items skipped). */
export function resolveCollection(
  reply: Pick<Collection, 'items' | 'includes'>,
  options: ResolveOptions,
): ResolvedEntry[] {
  const resolver = createResolver(reply, options);
  const items: ResolvedEntry[] = [];
  for (const raw of reply.items) {
    const parsed = EntrySchema.safeParse(raw);
    if (!parsed.success) continue;
    const resolved = resolver.entry(parsed.data.sys.id);
    if (resolved !== undefined) items.push(resolved);
  }
  return items;
}

/** The content type id of a resolved entry. */
export function contentTypeOf(entry: ResolvedEntry): string {
  return entry.sys.contentType.sys.id;
}
