/**
 * Store-level connectors (spec §7 "Commerce: catalogue and store"): channel, store
 * information, banners and the storefront redirect list.
 */
import type { Banner, Channel, Redirect, StoreMeta } from '../../../lib/commerce/types.ts';
import { parseReply, type BigCommerceClient } from './client.ts';
import { collectPages } from './catalog.ts';
import { BigCommerceError } from './errors.ts';
import { MAX_PAGE_SIZE, type ChannelQuery } from './queries.ts';
import {
  BannerListSchema,
  ChannelReplySchema,
  ChannelSchema,
  RedirectPageSchema,
  StoreMetaSchema,
} from './schemas/store.ts';

/** BigCommerce's own storefront channel, used when the client carries no channel. */
export const DEFAULT_CHANNEL_ID = 1;

/**
 * The client's channel with its currencies (`/v3/channels/{id}?include=currencies`).
 * A reply that carries `errors` raises a `BigCommerceError` CHANNEL_ERROR (spec §8).
 */
export async function getChannel(
  client: BigCommerceClient,
  query: ChannelQuery = { include: ['currencies'] },
): Promise<Channel> {
  const channelId = client.channelId ?? DEFAULT_CHANNEL_ID;
  const path = `v3/channels/${channelId}`;
  const include = [...new Set(['currencies', ...(query.include ?? [])])].join(',');
  const reply = await client.get(path, ChannelReplySchema, { include });
  if (hasErrors(reply.errors)) {
    throw new BigCommerceError(`BigCommerce channel ${channelId} replied with errors`, {
      code: 'CHANNEL_ERROR',
      status: 502,
      endpoint: `GET ${path}`,
      errors: describeErrors(reply.errors),
    });
  }
  return parseReply(ChannelSchema, reply.data, `GET ${path}`);
}

function hasErrors(errors: unknown): boolean {
  if (errors == null) return false;
  if (Array.isArray(errors)) return errors.length > 0;
  if (typeof errors === 'object') return Object.keys(errors).length > 0;
  return errors !== '' && errors !== false;
}

function describeErrors(errors: unknown): Record<string, string> {
  const entries = Array.isArray(errors) ? errors.entries() : Object.entries(errors as object);
  return Object.fromEntries(
    [...entries].map(([k, v]) => [String(k), typeof v === 'string' ? v : JSON.stringify(v)]),
  );
}

/** Store name, addresses, currency and language (`/v2/store`). */
export async function getStoreMeta(client: BigCommerceClient): Promise<StoreMeta> {
  return client.get('v2/store', StoreMetaSchema);
}

/**
 * Every banner (`/v2/banners`, all pages). v2 pages carry no count: a short page is the last.
 * Which banner shows is the caller's rule (spec §3: visible, highest id).
 */
export async function getAllBanners(client: BigCommerceClient): Promise<Banner[]> {
  const banners: Banner[] = [];
  for (let page = 1; page <= 100; page += 1) {
    const items = await client.get('v2/banners', BannerListSchema, { page, limit: MAX_PAGE_SIZE });
    banners.push(...items);
    if (items.length < MAX_PAGE_SIZE) break;
  }
  return banners;
}

/** Every storefront redirect with its resolved target (`include=to_url`, all pages). */
export async function getRedirects(client: BigCommerceClient): Promise<Redirect[]> {
  return collectPages((page) =>
    client.get('v3/storefront/redirects', RedirectPageSchema, {
      include: 'to_url',
      page,
      limit: MAX_PAGE_SIZE,
    }),
  );
}
