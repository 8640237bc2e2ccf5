/**
 * What the supervisor sends the kept build of the current release, and reads back from it
 * (src/server/publish/publisher-loop.ts): a batch's events as edits, when every one of them is one (a
 * product, category or brand created, updated or deleted, by numeric id; a content entry or
 * asset published, unpublished or deleted), and its reply, parsed (the build runs code over
 * upstream data: its messages are checked like any input).
 */
import * as z from 'zod';
import { parseScope } from '../webhooks/bigcommerce.ts';
import type { RebuildEvent } from './scheduler.ts';

/** One commerce entity to read again: what the supervisor sends, what the kept build reads. */
export const commerceEditSchema = z.object({
  resource: z.enum(['product', 'category', 'brand']),
  id: z.number().int().positive(),
});

export type CommerceEdit = z.infer<typeof commerceEditSchema>;

/**
 * A content entry or asset changed: the kept build reads the site's content again (it is small:
 * a handful of reads whatever the edit) and compares it with what the pages show.
 */
export const contentEditSchema = z.object({
  resource: z.literal('content'),
  /** `Entry.publish`, `Asset.unpublish`... */
  topic: z.string().regex(/^(Entry|Asset)\.(publish|unpublish|delete)$/),
  id: z.string().min(1).max(64),
});

export type ContentEdit = z.infer<typeof contentEditSchema>;

export const editSchema = z.discriminatedUnion('resource', [commerceEditSchema, contentEditSchema]);

export type Edit = CommerceEdit | ContentEdit;

/** The events as edits (one per entity), or null when one of them is not one. */
export function publishableEdits(events: readonly RebuildEvent[]): Edit[] | null {
  const edits = new Map<string, Edit>();
  for (const event of events) {
    if (event.source === 'contentful') {
      const edit = contentEditSchema.safeParse({
        resource: 'content',
        topic: event.topic,
        id: event.id,
      });
      if (!edit.success) return null;
      edits.set(`content ${event.id}`, edit.data);
      continue;
    }
    if (event.source !== 'bigcommerce') return null;
    const scope = parseScope(event.topic);
    // A positive id in its plain spelling ('7', not '07', '7.0' or '1e3').
    const id = Number(event.id);
    if (scope === null || !Number.isSafeInteger(id) || id <= 0 || String(id) !== event.id) {
      return null;
    }
    edits.set(`${scope.resource} ${event.id}`, { resource: scope.resource, id });
  }
  return edits.size === 0 ? null : [...edits.values()];
}

const paths = z.array(z.string().max(2048)).max(1_000_000);

const replySchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('published'),
    id: z.number(),
    written: paths,
    removed: paths,
    /** New picture files written into the release (`_astro/...`): new names, never replaced. */
    pictures: z.array(z.string().max(2048)).max(1_000_000).default([]),
    ms: z.number(),
  }),
  z.object({ type: z.literal('publish-full'), id: z.number(), reason: z.string().max(2000) }),
  z.object({
    type: z.literal('publish-failed'),
    id: z.number().optional(),
    error: z.string().max(10_000),
    /** It may pass (an upstream 5xx, a timeout): the same edits are worth asking again. */
    transient: z.boolean().default(false),
    /**
     * The edits' data was handed to the pages before it failed (they may not show it): only a
     * full build is right. Unsaid: assumed so.
     */
    dataChanged: z.boolean().default(true),
  }),
]);

export type PublisherAnswer = z.infer<typeof replySchema>;

export function parsePublisherReply(message: unknown): PublisherAnswer | null {
  const parsed = replySchema.safeParse(message);
  return parsed.success ? parsed.data : null;
}
