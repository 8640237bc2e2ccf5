/**
 * The parts of a category listing written as strings (ui/markup.ts): rendered through them by
 * the listing's components, so the pre-rendered page and an on-demand view share one home for
 * each part's markup.
 */
import { t } from '../../lib/i18n/index.ts';
import { iconHtml } from '../ui/icon-markup.ts';
import { attr, text } from '../ui/markup.ts';
import { pageWindow } from './listing-view.ts';

export interface PaginationProps {
  current: number;
  total: number;
  /** URL of a page number. */
  href: (page: number) => string;
}

/**
 * Pagination of a listing as plain links (works without JavaScript): previous, a window of
 * page numbers around the current one with the first and last, next. The current page carries
 * aria-current="page". Nothing for a single page.
 */
export function paginationHtml({ current, total, href }: PaginationProps): string {
  if (total <= 1) return '';
  const link = 'page-link';
  const previous =
    current > 1 && current <= total
      ? `<a${attr('href', href(current - 1))}${attr('class', `${link} hover:bg-neutral-100`)} rel="prev">` +
        `${iconHtml({ name: 'chevron-left', size: 18 })}<span class="sr-only">${text(t('pagination.previous'))}</span></a>`
      : '';
  const pages = pageWindow(current, total)
    .map((page) => {
      if (page === null) {
        return '<li><span class="px-1 text-neutral-600" aria-hidden="true">…</span></li>';
      }
      const label =
        page === current
          ? t('pagination.current', { current, total })
          : t('pagination.page', { page });
      const look =
        page === current
          ? `${attr('aria-current', 'page')}${attr('class', `${link} bg-primary-800 text-white`)}`
          : attr('class', `${link} text-neutral-800 hover:bg-neutral-100`);
      return (
        `<li><a${attr('href', href(page))}${look}><span class="sr-only">${text(label)}</span>` +
        `<span aria-hidden="true">${text(page)}</span></a></li>`
      );
    })
    .join('');
  const next =
    current < total
      ? `<a${attr('href', href(current + 1))}${attr('class', `${link} hover:bg-neutral-100`)} rel="next">` +
        `<span class="sr-only">${text(t('pagination.next'))}</span>${iconHtml({ name: 'chevron-right', size: 18 })}</a>`
      : '';
  return (
    `<nav${attr('aria-label', t('pagination.label'))} class="mt-8 flex justify-center">` +
    `<ul class="flex flex-wrap items-center gap-1"><li>${previous}</li>${pages}<li>${next}</li></ul></nav>`
  );
}
