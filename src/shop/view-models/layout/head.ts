/** Props of the document head, accepted by every layout (BaseHead.astro renders them). */
export interface HeadProps {
  title: string;
  description?: string;
  /**
   * Path of the canonical URL (default: the current path), resolved against the site URL; null
   * for none (error pages).
   */
  canonical?: string | null;
  noindex?: boolean;
  /** Structured data, one object or several (schema.org). */
  jsonLd?: Record<string, unknown> | readonly Record<string, unknown>[];
  /** Share image: absolute URL or site path (default /og-default.png). */
  image?: string;
  ogType?: 'website' | 'article' | 'product';
}

/**
 * The id of every layout's `<main>`, the content the page transition names `page`
 * (global.css). The first paint waits for it (it comes after the header, so the header is
 * whole): a new page painted before its content was read has no `page` to fade in, and showed
 * it without the transition (seen on a loaded machine).
 */
export const MAIN_ID = 'contenu';
