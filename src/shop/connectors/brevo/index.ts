/** Brevo connector: one configured client and the calls the shop makes. */
export { createBrevoClient, type BrevoClient } from './client.ts';
export { sendTransactionalEmail, type MailAddress, type TransactionalEmail } from './email.ts';
export {
  addContactToList,
  deleteContactInfo,
  getContactInfo,
  NEWSLETTER_LIST_ID,
  NewsletterEmailSchema,
  removeContactFromList,
  subscribe,
} from './contacts.ts';
