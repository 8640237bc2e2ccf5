/**
 * Contentful connector (the content service of spec §7): one configured Content Delivery API
 * client (`createContentfulClient`) and the functions that take it first. Used by the build
 * (pages, layout), the API middleware's `contentful` service and the integration tests, against
 * the real API or the sandbox. The content model is described in `README.md`.
 */
export { createContentfulClient, type ContentfulClient } from './client.ts';
export {} from './errors.ts';
export {
  getContentPages,
  getNavigation,
  getNavigations,
  getSiteContent,
  getSleepContents,
  getTags,
  getTechnologies,
  NavigationIdentifierSchema,
  TechnologyNamesSchema,
} from './queries.ts';
