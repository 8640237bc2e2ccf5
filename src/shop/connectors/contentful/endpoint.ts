/**
 * The Content Delivery API's address when `CONTENTFUL_API_URL` is unset: the default of
 * astro.config.mjs's env schema and of a kept build reading content (src/server/publish/publish-data.ts).
 */
export const CONTENTFUL_DELIVERY_URL = 'https://cdn.contentful.com';
