/**
 * The content edits of `npm run bench:rebuild` with `BENCH_PUBLISH=contentful`: content
 * publishes of several entry types, made through the sandbox's Contentful management API
 * (`@literie/sandbox/editor`, which sends the shop the signed webhook), each with the page that
 * shows it once it is live. One round, repeated until the count is reached:
 *
 * 1. a content page's title: `/cgv`, linked from the Footer navigation's legal group, which the
 *    footer shows in its legal bar under a fixed label (every page's shell unchanged);
 * 2. a sleep-content entry's title, on its page `/les-yeux-fermes/{slug}` (the list pages show
 *    it too);
 * 3. a new content page published (linked from no navigation): `/banc-essai-{run}-{round}`;
 * 4. a content page's body: `/aide` (its title is a footer column's link on every page, its
 *    body on its page alone);
 * 5. that new content page unpublished: its page answers 404.
 *
 * Technology blocks are left out: at 10,000 products and more, each is shown on thousands of
 * product pages (over the publisher's page limit: a full build, as it should be).
 */
import {
  publishedEntries,
  publishEntryField,
  publishNewEntry,
  unpublishEntry,
} from '@literie/sandbox/editor';

/** A content edit: how to make it, and the page that shows it once live. */
export interface ContentEdit {
  /** For the report: `content page title (/cgv)`. */
  what: string;
  /** The page to check. */
  page: string;
  /** Live: the page answers 200 with this text in it; null: it answers 404. */
  text: string | null;
  /** Makes the edit (update and publish, create and publish, or unpublish). */
  apply(): Promise<void>;
}

/** Pages the edits check that answer 200 before and after every edit: safe under load. */
export const STEADY_PAGES = ['/cgv', '/aide'] as const;

/** A rich-text document of one paragraph (the management API's `RichText`). */
function paragraph(text: string): unknown {
  return {
    nodeType: 'document',
    data: {},
    content: [
      {
        nodeType: 'paragraph',
        data: {},
        content: [{ nodeType: 'text', value: text, marks: [], data: {} }],
      },
    ],
  };
}

/** `count` edits, marked with `runId` so that each one's text is new. */
export async function contentEdits(
  sandboxUrl: string,
  count: number,
  runId: string,
): Promise<{ edits: ContentEdit[]; sleepPage: string }> {
  const sleep = (await publishedEntries(sandboxUrl, 'sleepContent'))
    .map(({ id, fields }) => ({
      id,
      title: typeof fields.title === 'string' ? fields.title : '',
      slug: fields.slug,
    }))
    .filter(
      (entry): entry is { id: string; title: string; slug: string } =>
        typeof entry.slug === 'string' && /^[a-z0-9-]+$/.test(entry.slug),
    );
  const first = sleep[0];
  if (first === undefined) throw new Error('the sandbox has no published sleep-content entry');
  const edits: ContentEdit[] = [];
  for (let round = 1; edits.length < count; round += 1) {
    const mark = (step: number) => `banc ${runId}-${String(round)}.${String(step)}`;
    const entry = sleep[(round - 1) % sleep.length] ?? first;
    const slug = `banc-essai-${runId}-${String(round)}`;
    const id = `page-${slug}`;
    const newTitle = `Page d’essai ${mark(3)}`;
    edits.push(
      {
        what: 'content page title (/cgv)',
        page: '/cgv',
        text: mark(1),
        apply: () =>
          publishEntryField(sandboxUrl, 'page-cgv', 'title', `Conditions générales ${mark(1)}`),
      },
      {
        what: `sleep-content entry title (${entry.id})`,
        page: `/les-yeux-fermes/${entry.slug}`,
        text: mark(2),
        apply: () => publishEntryField(sandboxUrl, entry.id, 'title', `${entry.title} ${mark(2)}`),
      },
      {
        what: `new content page (/${slug})`,
        page: `/${slug}`,
        text: mark(3),
        apply: () =>
          publishNewEntry(sandboxUrl, id, 'contentPage', {
            title: newTitle,
            slug,
            description: 'Une page publiée par le banc d’essai.',
            body: paragraph('Publiée par le banc d’essai, retirée ensuite.'),
          }),
      },
      {
        what: 'content page body (/aide)',
        page: '/aide',
        text: mark(4),
        apply: () =>
          publishEntryField(sandboxUrl, 'page-aide', 'body', paragraph(`Aide ${mark(4)}`)),
      },
      {
        what: `content page unpublished (/${slug})`,
        page: `/${slug}`,
        text: null,
        apply: () => unpublishEntry(sandboxUrl, id),
      },
    );
  }
  return { edits: edits.slice(0, count), sleepPage: `/les-yeux-fermes/${first.slug}` };
}
