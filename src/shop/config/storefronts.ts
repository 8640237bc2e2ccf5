/**
 * Storefront config per host (spec §3) as the server uses it: the parsed `STOREFRONTS`
 * setting (`src/shop/config/environment.ts`, documented form `{"default":{…},"hosts":{…}}`)
 * plus a default storefront, and resolved per request host with the spec §8 warning.
 * Reads no environment (`config.ts` passes the values), so tests build it freely.
 */
import type { BigCommerceClient } from '../connectors/bigcommerce/index.ts';
import {
  resolveStorefront,
  storefrontConfig,
  type Storefront,
  type StorefrontConfig,
  type StorefrontsSetting,
} from '../../lib/commerce/storefront.ts';
import { log } from './log.ts';

export interface StorefrontSettings {
  /** The parsed `STOREFRONTS` setting, if set. */
  setting: StorefrontsSetting | undefined;
  /** Channel of the default storefront when the setting has no `default` entry. */
  defaultChannelId: number;
  /** Name of the default storefront when the setting has no `default` entry (the store's). */
  defaultName: string;
}

/**
 * The storefront config; without a `default` entry the default is
 * `{ name: defaultName, channelId: defaultChannelId, protocol: 'https' }`.
 */
export function buildStorefrontConfig(settings: StorefrontSettings): StorefrontConfig {
  return storefrontConfig(settings.setting, {
    name: settings.defaultName,
    channelId: settings.defaultChannelId,
    protocol: 'https',
  });
}

// Hosts come from requests: remember at most this many for the warn-once rule.
const MAX_WARNED_HOSTS = 1_000;

/**
 * `host => storefront`: the host's entry, else the default with one warning per host
 * (spec §8 "No storefront config for the host"; the host as `warn`'s argument).
 */
export function createStorefrontResolver(
  config: StorefrontConfig,
  warn: (host: string) => void = (host) => {
    log.warn({ host }, '[storefront] No storefront config for the host: using the default');
  },
): (host: string | null | undefined) => Storefront {
  const warned = new Set<string>();
  return (host) => {
    const { storefront, matched } = resolveStorefront(host, config);
    const key = (host ?? '').trim().toLowerCase();
    if (!matched && !warned.has(key) && warned.size < MAX_WARNED_HOSTS) {
      warned.add(key);
      warn(key.slice(0, 255));
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
