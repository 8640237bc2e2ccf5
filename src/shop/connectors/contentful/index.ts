/**
 * Contentful connector (the content service of spec §7): one configured Content Delivery API
 * client (`createContentfulClient`) and the functions that take it first. Used by the build
 * (pages, layout), the API middleware's `contentful` service and the integration tests, against
 * the real API or the sandbox. The content model is described in `README.md`.
 */
export {
  createContentfulClient,
  RATE_LIMIT_RESET_HEADER,
  type ContentfulClient,
  type ContentfulClientOptions,
} from './client.ts';
export { ContentfulError, isContentfulError, type ContentfulErrorCode } from './errors.ts';
export {
  getContentPage,
  getContentPages,
  getNavigation,
  getNavigations,
  getSiteContent,
  getSleepContent,
  getSleepContents,
  getTags,
  getTechnologies,
  MAX_PAGE_SIZE,
  NavigationIdentifierSchema,
  TechnologyNamesSchema,
} from './queries.ts';
export { TECHNOLOGY_COMPONENT } from './entries.ts';
export { absoluteAssetUrl, resolveCollection, type ResolvedEntry } from './resolve.ts';
