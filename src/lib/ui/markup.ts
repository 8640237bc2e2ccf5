/**
 * Markup written as strings, for the parts of a page the server also assembles without Astro
 * (a listing view): the components render through these functions (`set:html`), so
 * a part has one home, and its bytes are the ones Astro wrote for it. Text and attribute
 * values are escaped as Astro escapes them: text `& < > ' "`, attribute values `&` and `"`
 * (always quoted).
 */
import { escape } from 'html-escaper';

/** Text content, escaped. */
export function text(value: string | number): string {
  return escape(String(value));
}

/**
 * An attribute as Astro writes one: nothing for null or undefined, the bare name for an empty
 * string, else `name="value"` with `&` and `"` escaped.
 */
export function attr(name: string, value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  const string = String(value);
  if (string === '') return ` ${name}`;
  return ` ${name}="${string.replaceAll('&', '&amp;').replaceAll('"', '&quot;')}"`;
}

/** A boolean attribute (`checked`, `selected`, `open`...): the bare name when on. */
export function flag(name: string, on: boolean): string {
  return on ? ` ${name}` : '';
}

/** `class:list`'s value: the truthy class names, space-separated; no attribute when none. */
export function classList(...names: readonly (string | false | null | undefined)[]): string {
  return attr('class', names.filter(Boolean).join(' ') || null);
}
