/**
 * zod schemas of the Content Delivery API replies the shop reads, as Contentful documents
 * them: collections (`items`, `includes`, `errors`), entries, assets, links, tags, error
 * replies and rich-text documents. Lenient where Contentful may add things (unknown keys
 * pass, unknown node types are kept), strict where the shop relies on a shape: a collection
 * whose items are not a list is an unusable reply; a single malformed item is skipped by the
 * resolver, never the whole reply.
 */
import { z } from 'zod';
import type { RichTextDocument, RichTextNode } from '../../../lib/content/types.ts';

const ContentTypeLinkSchema = z.object({ sys: z.object({ id: z.string().min(1) }) });

/** A tag reference in `metadata.tags`. */
export const TagLinkSchema = z.object({
  sys: z.object({ type: z.literal('Link'), linkType: z.literal('Tag'), id: z.string().min(1) }),
});

export const EntrySysSchema = z.object({
  id: z.string().min(1),
  type: z.literal('Entry'),
  contentType: ContentTypeLinkSchema,
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
  revision: z.number().optional(),
  locale: z.string().optional(),
});

/** An entry: fields as sent (one locale), links unresolved. */
export const EntrySchema = z.object({
  sys: EntrySysSchema,
  metadata: z
    .object({
      // A malformed tag reference is dropped, not the entry.
      tags: z
        .array(z.unknown())
        .transform((tags) =>
          tags.flatMap((tag) => {
            const parsed = TagLinkSchema.safeParse(tag);
            return parsed.success ? [parsed.data] : [];
          }),
        )
        .default([]),
    })
    .default({ tags: [] }),
  fields: z.record(z.string(), z.unknown()).default({}),
});
export type Entry = z.output<typeof EntrySchema>;

const dimension = z.number().int().positive().max(100_000);

/** An asset: `fields.file.url` is protocol-relative (`//images.ctfassets.net/...`) upstream. */
export const AssetSchema = z.object({
  sys: z.object({
    id: z.string().min(1),
    type: z.literal('Asset'),
    createdAt: z.string().optional(),
    updatedAt: z.string().optional(),
  }),
  fields: z
    .object({
      title: z.string().optional(),
      description: z.string().optional(),
      file: z
        .object({
          url: z.string(),
          contentType: z.string().default(''),
          fileName: z.string().optional(),
          details: z
            .object({
              size: z.number().optional(),
              image: z.object({ width: dimension, height: dimension }).optional().catch(undefined),
            })
            .optional(),
        })
        .optional(),
    })
    .default({}),
});
export type Asset = z.output<typeof AssetSchema>;

/** A list reply: entries with their linked entries and assets in `includes`. */
export const CollectionSchema = z.object({
  sys: z.object({ type: z.literal('Array') }),
  total: z.number().int().nonnegative(),
  skip: z.number().int().nonnegative(),
  limit: z.number().int().nonnegative(),
  items: z.array(z.unknown()),
  includes: z
    .object({
      Entry: z.array(z.unknown()).optional(),
      Asset: z.array(z.unknown()).optional(),
    })
    .optional(),
  errors: z.array(z.unknown()).optional(),
});
export type Collection = z.output<typeof CollectionSchema>;

/** A public tag of `/tags`. */
export const TagSchema = z.object({
  name: z.string(),
  sys: z.object({
    id: z.string().min(1),
    type: z.literal('Tag'),
    visibility: z.string().optional(),
  }),
});
export const TagCollectionSchema = z.object({
  total: z.number().int().nonnegative().optional(),
  skip: z.number().int().nonnegative().default(0),
  limit: z.number().int().nonnegative().optional(),
  items: z.array(z.unknown()),
});

/** An error reply: `{ sys: { type: 'Error', id }, message, details?, requestId? }`. */
export const ErrorReplySchema = z.object({
  sys: z.object({ type: z.literal('Error'), id: z.string() }),
  message: z.string().optional(),
  details: z.unknown().optional(),
  requestId: z.string().optional(),
});

/**
 * A rich-text node: any `nodeType` (unknown ones are kept; the renderer gives their content
 * only), `data`, and `content`, or `value` and `marks` for text. Recursive.
 */
export const RichTextNodeSchema: z.ZodType<RichTextNode> = z.lazy(() =>
  z.object({
    nodeType: z.string(),
    data: z.record(z.string(), z.unknown()).default({}),
    content: z.array(RichTextNodeSchema).optional(),
    value: z.string().optional(),
    marks: z.array(z.object({ type: z.string() })).optional(),
  }),
);

/** A rich-text field: a `document` node. Parse it after `normaliseRichText` (depth-bounded). */
export const RichTextDocumentSchema: z.ZodType<RichTextDocument> = z.object({
  nodeType: z.literal('document'),
  data: z.record(z.string(), z.unknown()).default({}),
  content: z.array(RichTextNodeSchema),
  value: z.string().optional(),
  marks: z.array(z.object({ type: z.string() })).optional(),
});
