/**
 * Store-level replies (`../store.ts`): storefront redirects, banners (v2), the channel with its
 * currencies and its site, and the store information (v2).
 */
import { z } from 'zod';
import type { Banner, Channel, Redirect, StoreMeta } from '../../../../lib/commerce/types.ts';
import { id, text, list, v3PageSchema } from './common.ts';

const RedirectTargetTypeSchema = z.enum(['product', 'brand', 'category', 'page', 'post', 'url']);

export const RedirectSchema = z
  .object({
    id,
    from_path: z.string(),
    to_url: text,
    to: z
      .object({
        type: RedirectTargetTypeSchema.nullish(),
        entity_id: z.number().int().nullish(),
        url: text,
      })
      .nullish(),
  })
  .transform((r): Redirect => {
    const toType = r.to?.type ?? 'url';
    const entityId = r.to?.entity_id;
    return {
      id: r.id,
      fromPath: r.from_path,
      // `to_url` is only sent with `include=to_url`; a plain URL target also sits in `to.url`.
      toUrl: r.to_url !== '' ? r.to_url : (r.to?.url ?? ''),
      toEntityId: toType !== 'url' && entityId != null && entityId > 0 ? entityId : null,
      toType,
    };
  });

export const RedirectPageSchema = v3PageSchema(RedirectSchema);

export const BannerSchema = z
  .object({
    id,
    name: text,
    content: text,
    page: text,
    location: text,
    // spec §3: '1' means shown. v2 sends strings; tolerate numbers and booleans.
    visible: z.union([z.enum(['1', '0']), z.literal(1), z.literal(0), z.boolean()]),
  })
  .transform((b): Banner => ({
    id: b.id,
    name: b.name,
    content: b.content,
    page: b.page,
    location: b.location,
    visible: b.visible === '1' || b.visible === 1 || b.visible === true,
  }));

/** v2 `/banners`: a bare array, or an empty 204 reply when there is none. */
export const BannerListSchema = list(BannerSchema);

export const ChannelSchema = z
  .object({
    id,
    name: z.string(),
    currencies: z.object({
      default_currency: z.string().min(1),
      enabled_currencies: list(z.string()),
    }),
  })
  .transform((c): Channel => ({
    id: c.id,
    name: c.name,
    defaultCurrency: c.currencies.default_currency,
    enabledCurrencies: c.currencies.enabled_currencies,
  }));

/** `/v3/channels/{id}?include=currencies`; `errors` is checked before parsing (spec §8). */
export const ChannelReplySchema = z.object({
  data: z.unknown(),
  errors: z.unknown().optional(),
});

export const StoreMetaSchema = z
  .object({
    name: z.string(),
    domain: text,
    secure_URL: text,
    phone: text,
    address: text,
    admin_email: text,
    order_email: text,
    currency: text,
    language: text,
    country: text,
  })
  .transform((s): StoreMeta => ({
    name: s.name,
    domain: s.domain,
    secureUrl: s.secure_URL,
    phone: s.phone,
    address: s.address,
    adminEmail: s.admin_email,
    orderEmail: s.order_email,
    currency: s.currency,
    language: s.language,
    country: s.country,
  }));
