/**
 * Content-service tags (spec §7): a tag whose name holds a colon splits into a type and a name
 * (`format:podcast` → `format` / `podcast`), and the rules cards and lists apply to them
 * (the play icon of video and podcast formats, the `?tag=` filter). Pure: usable anywhere.
 */
import type { ContentTag } from './types.ts';

/** Tag type of the sleep-content formats (`format:podcast`, `format:video`...). */
export const FORMAT_TAG_TYPE = 'format';
/** Tag type of the sleep-content themes (`theme:endormissement`...). */
export const THEME_TAG_TYPE = 'theme';
/** Formats whose cards show a play icon (spec §2). */
export const PLAYABLE_FORMATS: readonly string[] = ['video', 'podcast'];

/**
 * Type and name of a tag label: split at the first colon, both parts trimmed. A label without
 * a colon, or with nothing on one side of it (`:x`, `x:`), has no type and keeps its whole
 * (trimmed) text as name.
 */
export function splitTag(label: string): { type: string | null; name: string } {
  const text = label.trim();
  const colon = text.indexOf(':');
  if (colon < 0) return { type: null, name: text };
  const type = text.slice(0, colon).trim();
  const name = text.slice(colon + 1).trim();
  if (type === '' || name === '') return { type: null, name: text };
  return { type, name };
}

/** A `ContentTag` from Contentful's tag id and name. */
export function toContentTag(id: string, label: string): ContentTag {
  return { id, label: label.trim(), ...splitTag(label) };
}

const same = (a: string | null, b: string) => a !== null && a.toLowerCase() === b.toLowerCase();

type TagLike = Pick<ContentTag, 'type' | 'name'>;

/** Whether a tag is of `type` and named `name` (both case-insensitive). */
export function isTag(tag: TagLike, type: string, name: string): boolean {
  return same(tag.type, type) && same(tag.name, name);
}

/** spec §2: a card shows a play icon for a video or podcast format tag. */
export function hasPlayIcon(tags: readonly TagLike[]): boolean {
  return tags.some((tag) => PLAYABLE_FORMATS.some((format) => isTag(tag, FORMAT_TAG_TYPE, format)));
}

/** The tags of one type (`format`, `theme`), in their order. */
export function tagsOfType<T extends TagLike>(tags: readonly T[], type: string): T[] {
  return tags.filter((tag) => same(tag.type, type));
}

/**
 * Whether a tag answers a `?tag=` value: its name (`podcast`), its full label
 * (`format:podcast`) or its id (`formatPodcast`), case-insensitive, spaces around ignored.
 */
export function matchesTag(tag: ContentTag, value: string): boolean {
  const wanted = value.trim().toLowerCase();
  if (wanted === '') return false;
  return [tag.name, tag.label, tag.id].some((text) => text.trim().toLowerCase() === wanted);
}
