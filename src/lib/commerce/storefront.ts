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

/** spec §3 storefront config: one entry per host, plus the `default` fallback. */
export const StorefrontConfigSchema = z
  .object({ default: StorefrontSchema })
  .catchall(StorefrontSchema)
  .transform((config): Record<string, Storefront> & { default: Storefront } => {
    const byHost: Record<string, Storefront> = {};
    for (const [host, storefront] of Object.entries(config)) {
      byHost[host.trim().toLowerCase()] = storefront;
    }
    return { ...byHost, default: config.default };
  });

export type StorefrontConfig = z.output<typeof StorefrontConfigSchema>;

/** Parses the JSON text of the storefront config (e.g. the STOREFRONTS variable); throws a ZodError or SyntaxError. */
export function parseStorefrontConfig(json: string): StorefrontConfig {
  return StorefrontConfigSchema.parse(JSON.parse(json));
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
