/**
 * Storefront config per host (spec §3) as the server uses it: built from the `STOREFRONTS`
 * JSON plus a default storefront, and resolved per request host with the spec §8 warning.
 * Reads no environment (`config.ts` passes the values), so tests build it freely.
 */
import type { BigCommerceClient } from '../connectors/bigcommerce/index.ts';
import {
  resolveStorefront,
  StorefrontConfigSchema,
  type Storefront,
  type StorefrontConfig,
} from '../../lib/commerce/storefront.ts';
import { log } from './log.ts';

export interface StorefrontSettings {
  /** JSON object `{ "<host>": { name, channelId, protocol }, "default"?: {...} }`, if any. */
  json: string | undefined;
  /** Channel of the default storefront when the JSON has no `default` entry. */
  defaultChannelId: number;
  /** Name of the default storefront when the JSON has no `default` entry (the store's). */
  defaultName: string;
}

/**
 * Parses and validates the storefront config; without a `default` entry the default is
 * `{ name: defaultName, channelId: defaultChannelId, protocol: 'https' }`. Throws an Error
 * naming the variable on invalid JSON or entries.
 */
export function buildStorefrontConfig(settings: StorefrontSettings): StorefrontConfig {
  let entries: unknown = {};
  if (settings.json !== undefined && settings.json.trim() !== '') {
    try {
      entries = JSON.parse(settings.json);
    } catch {
      throw new Error('STOREFRONTS is not valid JSON');
    }
  }
  if (typeof entries !== 'object' || entries === null || Array.isArray(entries)) {
    throw new Error('STOREFRONTS must be a JSON object of storefronts by host');
  }
  const fallback = {
    name: settings.defaultName,
    channelId: settings.defaultChannelId,
    protocol: 'https',
  };
  const result = StorefrontConfigSchema.safeParse({ default: fallback, ...entries });
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue?.path.map(String).join('.') ?? '';
    throw new Error(`Invalid STOREFRONTS entry ${where}: ${issue?.message ?? 'invalid'}`);
  }
  return result.data;
}

/** Whether the JSON carries its own `default` entry (then no store name is needed). */
export function hasDefaultStorefront(json: string | undefined): boolean {
  if (json === undefined || json.trim() === '') return false;
  try {
    const parsed: unknown = JSON.parse(json);
    return typeof parsed === 'object' && parsed !== null && Object.hasOwn(parsed, 'default');
  } catch {
    return false;
  }
}

// Hosts come from requests: remember at most this many for the warn-once rule.
const MAX_WARNED_HOSTS = 1_000;

/**
 * `host => storefront`: the host's entry, else the default with one `console.warn` per host
 * (spec §8 "No storefront config for the host").
 */
export function createStorefrontResolver(
  config: StorefrontConfig,
  warn: (message: string) => void = log.warn,
): (host: string | null | undefined) => Storefront {
  const warned = new Set<string>();
  return (host) => {
    const { storefront, matched } = resolveStorefront(host, config);
    const key = (host ?? '').trim().toLowerCase();
    if (!matched && !warned.has(key) && warned.size < MAX_WARNED_HOSTS) {
      warned.add(key);
      warn(
        `[storefront] No storefront config for host "${key.slice(0, 255)}": using the default storefront`,
      );
    }
    return storefront;
  };
}

/** The host a request was made to: its `Host` header, else its URL's. */
export function requestHost(request: Request): string {
  return request.headers.get('host') ?? new URL(request.url).host;
}

/**
 * `host => client`: `base` on the channel of the host's storefront (spec §7: commerce calls
 * carry the channel id of the current host's storefront). One client per channel, reused.
 */
export function createClientForHost(
  base: BigCommerceClient,
  storefrontFor: (host: string | null | undefined) => Storefront,
): (host: string | null | undefined) => BigCommerceClient {
  // Channel ids come from the config, never from the request: the map stays small.
  const byChannel = new Map<number, BigCommerceClient>();
  return (host) => {
    const { channelId } = storefrontFor(host);
    let client = byChannel.get(channelId);
    if (client === undefined) {
      client = base.withChannel(channelId);
      byChannel.set(channelId, client);
    }
    return client;
  };
}
