/** Brevo connector: one configured client and the calls the shop makes. */
export {
  BrevoError,
  createBrevoClient,
  type BrevoClient,
  type BrevoClientOptions,
} from './client.ts';
export { sendTransactionalEmail, type MailAddress, type TransactionalEmail } from './email.ts';
export {
  addContactToList,
  deleteContactInfo,
  getContactInfo,
  ListIdSchema,
  MAX_LIST_EMAILS,
  NEWSLETTER_LIST_ID,
  NewsletterEmailSchema,
  removeContactFromList,
  subscribe,
  type ListChange,
} from './contacts.ts';
