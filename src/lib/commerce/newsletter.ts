/** spec §9: the newsletter's Brevo list, for the connector and the browser's calls alike. */
export const NEWSLETTER_LIST_ID = 31;
