/**
 * Brevo contacts and lists (spec §7 "Newsletter provider"): subscribe, the contact's lists,
 * delete, add to and remove from a list. Addresses are checked here before any call (one
 * schema, `NewsletterEmailSchema`) and sent trimmed and lower-cased, as Brevo stores them;
 * Brevo's refusals come back as `BrevoError` with its status and code (`duplicate_parameter`,
 * `invalid_parameter`, `document_not_found`), which the newsletter island turns into the
 * texts of spec §8.
 */
import { z } from 'zod';
import { NEWSLETTER_LIST_ID } from '../../../lib/commerce/newsletter.ts';
import type { BrevoClient } from './client.ts';

export { NEWSLETTER_LIST_ID };

/** Longest address Brevo (and RFC 5321) accepts. */
const MAX_EMAIL_LENGTH = 254;

/**
 * An address a shopper typed: trimmed, lower-cased, at most 254 characters, one `@` between a
 * local part and a dotted domain, no spaces or control characters.
 */
export const NewsletterEmailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(MAX_EMAIL_LENGTH)
  .regex(/^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+\.[^\s@\p{Cc}]+$/u, 'Invalid email address');

/** A Brevo list id: a positive integer. */
export const ListIdSchema = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** Brevo's `POST .../contacts/add|remove` takes at most 150 addresses a call. */
export const MAX_LIST_EMAILS = 150;

const CreatedContactSchema = z.object({ id: z.number() }).optional();

const ContactSchema = z.object({
  email: z.string().optional(),
  id: z.number(),
  listIds: z.array(z.number()),
});

const ListChangeSchema = z.object({
  contacts: z.object({
    success: z.array(z.string()).optional(),
    failure: z.array(z.string()).optional(),
  }),
});

export interface ListChange {
  /** Addresses added to (or removed from) the list. */
  success: string[];
  /** Addresses Brevo could not add (or remove). */
  failure: string[];
}

function contactPath(email: string): string {
  return `contacts/${encodeURIComponent(NewsletterEmailSchema.parse(email))}`;
}

function listPath(listId: number, change: 'add' | 'remove'): string {
  return `contacts/lists/${String(ListIdSchema.parse(listId))}/contacts/${change}`;
}

function emails(list: readonly string[]): string[] {
  if (list.length === 0 || list.length > MAX_LIST_EMAILS) {
    throw new RangeError(`Between 1 and ${MAX_LIST_EMAILS} addresses a call`);
  }
  return [...new Set(list.map((email) => NewsletterEmailSchema.parse(email)))];
}

/**
 * Creates the contact in the newsletter list. An address Brevo already knows is refused (400
 * `duplicate_parameter`): a known contact joins with `addContactToList` instead (spec §7).
 */
export async function subscribe(
  client: BrevoClient,
  email: string,
  listId: number = NEWSLETTER_LIST_ID,
): Promise<{ id: number | null }> {
  const reply = await client.request('POST', 'contacts', CreatedContactSchema, {
    email: NewsletterEmailSchema.parse(email),
    listIds: [ListIdSchema.parse(listId)],
  });
  return { id: reply?.id ?? null };
}

/** The lists the contact is in (spec §3 newsletter contact: listIds); 404 when unknown. */
export async function getContactInfo(
  client: BrevoClient,
  email: string,
): Promise<{ listIds: number[] }> {
  const contact = await client.request('GET', contactPath(email), ContactSchema);
  return { listIds: contact.listIds };
}

/** Deletes the contact; 404 when unknown. */
export async function deleteContactInfo(client: BrevoClient, email: string): Promise<void> {
  await client.request('DELETE', contactPath(email), z.undefined());
}

/** Adds known contacts to a list; 400 `invalid_parameter` when none could be added. */
export async function addContactToList(
  client: BrevoClient,
  listId: number,
  addresses: readonly string[],
): Promise<ListChange> {
  return listChange(client, listPath(listId, 'add'), addresses);
}

/** Removes contacts from a list; 400 `invalid_parameter` when none could be removed. */
export async function removeContactFromList(
  client: BrevoClient,
  listId: number,
  addresses: readonly string[],
): Promise<ListChange> {
  return listChange(client, listPath(listId, 'remove'), addresses);
}

async function listChange(
  client: BrevoClient,
  path: string,
  addresses: readonly string[],
): Promise<ListChange> {
  const reply = await client.request('POST', path, ListChangeSchema, {
    emails: emails(addresses),
  });
  return { success: reply.contacts.success ?? [], failure: reply.contacts.failure ?? [] };
}
