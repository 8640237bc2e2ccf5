/**
 * Document heads of the content pages: title, meta description (plain text, cut at 160
 * characters), canonical path, share image and schema.org JSON-LD (an `Article` or
 * `PodcastEpisode` for sleep content, a `WebPage` for content pages). Pure.
 */
import type { HeadProps } from '../layout/head.ts';
import { truncateText } from '../../../lib/commerce/text.ts';
import { richTextToPlainText } from '../../../lib/content/rich-text.ts';
import { sleepContentPath } from '../../../lib/content/sleep-content.ts';
import type { ContentPage, SleepContent } from '../../../lib/content/types.ts';

const DESCRIPTION_LENGTH = 160;

function describe(text: string): string {
  return truncateText(text.replace(/\s+/g, ' ').trim(), DESCRIPTION_LENGTH);
}

export function sleepEntryHead(entry: SleepContent, site: URL | string): HeadProps {
  const path = sleepContentPath(entry.slug);
  const description = describe(
    entry.excerpt || (entry.body ? richTextToPlainText(entry.body) : '') || entry.title,
  );
  const audio = entry.audio !== null && entry.video === null;
  return {
    title: entry.title,
    description,
    canonical: path,
    ...(entry.image ? { image: entry.image.url } : {}),
    ogType: 'article',
    jsonLd: {
      '@context': 'https://schema.org',
      '@type': audio ? 'PodcastEpisode' : 'Article',
      [audio ? 'name' : 'headline']: entry.title,
      description,
      url: new URL(path, site).href,
      datePublished: entry.publishedAt,
      inLanguage: 'fr',
      ...(entry.image ? { image: entry.image.url } : {}),
      ...(audio && entry.audio
        ? { associatedMedia: { '@type': 'MediaObject', contentUrl: entry.audio.url } }
        : {}),
      ...(audio && entry.episode !== null ? { episodeNumber: entry.episode } : {}),
    },
  };
}

export function contentPageHead(page: ContentPage, site: URL | string): HeadProps {
  const path = `/${page.slug}`;
  const description = describe(
    page.description || (page.body ? richTextToPlainText(page.body) : '') || page.title,
  );
  return {
    title: page.title,
    description,
    canonical: path,
    jsonLd: {
      '@context': 'https://schema.org',
      '@type': 'WebPage',
      name: page.title,
      description,
      url: new URL(path, site).href,
      inLanguage: 'fr',
      dateModified: page.updatedAt,
    },
  };
}
