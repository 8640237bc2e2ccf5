/**
 * The editor's helpers (`src/editor.ts`, `@literie/sandbox/editor`), as the publish tests and
 * `bench:rebuild` use them: a field edited and published, an entry created and published, then
 * unpublished, each seen (or no longer seen) by the Delivery API the shop reads; the published
 * entries of a content type listed with their fields.
 */
import { describe, expect, it } from 'vitest';
import {
  publishedEntries,
  publishEntryField,
  publishNewEntry,
  unpublishEntry,
} from '../src/editor.ts';
import { sandboxForFile, type List } from './helpers.ts';

const { sandbox, cda } = sandboxForFile();

/** The title the Delivery API gives content page `slug`, or null when it has none. */
async function deliveredTitle(slug: string): Promise<unknown> {
  const reply = await cda<List>(`/entries?content_type=contentPage&fields.slug=${slug}`);
  expect(reply.status).toBe(200);
  return reply.body.items[0]?.fields.title ?? null;
}

describe('editing as an editor would', () => {
  it('a field published: the Delivery API reads the new value', async () => {
    await publishEntryField(sandbox().url, 'page-cgv', 'title', 'Conditions (modifiées)');
    expect(await deliveredTitle('cgv')).toBe('Conditions (modifiées)');
  });

  it('an entry created and published, then unpublished: delivered, then no more', async () => {
    expect(await deliveredTitle('page-d-essai')).toBeNull();
    await publishNewEntry(sandbox().url, 'page-essai', 'contentPage', {
      title: 'Page d’essai',
      slug: 'page-d-essai',
    });
    expect(await deliveredTitle('page-d-essai')).toBe('Page d’essai');
    await unpublishEntry(sandbox().url, 'page-essai');
    expect(await deliveredTitle('page-d-essai')).toBeNull();
    // Unpublished twice: refused, and said.
    await expect(unpublishEntry(sandbox().url, 'page-essai')).rejects.toThrow(
      /unpublish page-essai: 400/,
    );
  });

  it('the published entries of a type, with their fields; drafts left out', async () => {
    const pages = await publishedEntries(sandbox().url, 'contentPage');
    const slugs = pages.map((page) => page.fields.slug);
    expect(slugs).toContain('cgv');
    // The seed's draft (offres-d-ete) and the page unpublished above are not published.
    expect(slugs).not.toContain('offres-d-ete');
    expect(slugs).not.toContain('page-d-essai');
    const cgv = pages.find((page) => page.id === 'page-cgv');
    expect(cgv?.fields.title).toBe('Conditions (modifiées)');
  });
});
