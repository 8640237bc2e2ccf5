import { z } from 'zod';

export const StorefrontSchema = z.object({
  name: z.string().trim().min(1),
  channelId: z.coerce.number().int().positive(),
  /** `https` or `http` (a trailing `:` is accepted). */
  protocol: z
    .string()
    .trim()
    .toLowerCase()
    .transform((value) => value.replace(/:$/, ''))
    .pipe(z.enum(['http', 'https'])),
});

export type Storefront = z.output<typeof StorefrontSchema>;

/**
 * spec §3 storefront config as the shop resolves it: one entry per host (lower case), plus the
 * `default` fallback.
 */
export type StorefrontConfig = Record<string, Storefront> & { default: Storefront };

/**
 * The `STOREFRONTS` setting, as documented: `{"default":{…},"hosts":{"<host>":{…}}}`, each
 * entry `{ name, channelId, protocol }`; both keys optional (no `default`: the shop's default
 * storefront). Any other key is refused, so a map of hosts at the top level (a misplaced
 * host) fails with its name instead of being silently ignored.
 */
const StorefrontsSettingSchema = z.strictObject(
  {
    default: StorefrontSchema.optional(),
    hosts: z
      .record(z.string().trim().min(1, 'a host must not be empty'), StorefrontSchema)
      .optional(),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown key ${issue.keys.map((key) => `"${key}"`).join(', ')}: hosts go under "hosts"`
        : undefined,
  },
);

/** The parsed `STOREFRONTS` setting: its own default storefront, if any, and its hosts. */
export interface StorefrontsSetting {
  default: Storefront | undefined;
  /** Lower-case host (port optional) → storefront. */
  hosts: Readonly<Record<string, Storefront>>;
}

/**
 * Parses the JSON text of the `STOREFRONTS` setting (the documented form above). Throws an
 * Error saying what is wrong, the entry's path included (`hosts.shop.fr.channelId: …`).
 */
export function parseStorefrontConfig(json: string): StorefrontsSetting {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new Error('is not valid JSON');
  }
  const result = StorefrontsSettingSchema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue?.path.map(String).join('.') ?? '';
    throw new Error(
      `${where === '' ? '' : `entry ${where}: `}${issue?.message ?? 'is invalid'}` +
        ' (expected {"default":{"name","channelId","protocol"},"hosts":{"<host>":{…}}})',
    );
  }
  const hosts: Record<string, Storefront> = {};
  for (const [host, storefront] of Object.entries(result.data.hosts ?? {})) {
    if (host.trim().toLowerCase() === 'default') {
      throw new Error('entry hosts.default: "default" is not a host');
    }
    hosts[host.trim().toLowerCase()] = storefront;
  }
  return { default: result.data.default, hosts };
}

/** The config the shop resolves hosts with: the setting's hosts, and its default or `fallback`. */
export function storefrontConfig(
  setting: StorefrontsSetting | undefined,
  fallback: Storefront,
): StorefrontConfig {
  return { ...setting?.hosts, default: setting?.default ?? fallback };
}

/**
 * spec §8: the storefront of a host (`Host` header, port optional, case ignored), tried with
 * its port then without; no entry → the default with `matched: false` (the caller warns).
 */
export function resolveStorefront(
  host: string | null | undefined,
  config: StorefrontConfig,
): { storefront: Storefront; matched: boolean } {
  const wanted = (host ?? '').trim().toLowerCase();
  const hostname = wanted.replace(/:\d+$/, '');
  for (const key of [wanted, hostname]) {
    if (key === '' || key === 'default') continue;
    const storefront = config[key];
    if (storefront) return { storefront, matched: true };
  }
  return { storefront: config.default, matched: false };
}
