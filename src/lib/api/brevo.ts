/**
 * Typed calls of the `brevo` service of the shop API (spec §7 "Newsletter provider"): anyone
 * subscribes; the other four only for the logged-in customer's own address, in list 31.
 */
import { callApi, type CallApiInit } from './client.ts';

export { NEWSLETTER_LIST_ID } from '../commerce/newsletter.ts';

/** `{ listId, contactEmails: { emails: [email] } }` (spec §7). */
export interface ListContactInput {
  listId: number;
  contactEmails: { emails: [string] };
}

/** Brevo's reply to a list change: the addresses added or removed, and those refused. */
export interface ListChange {
  contacts: { success: string[]; failure: string[] };
}

const call = <T>(method: string, args: readonly unknown[], init?: CallApiInit) =>
  callApi<T>('brevo', method, args, init);

export const brevoApi = {
  /** Subscribes to list 31; 400 when the contact already exists (spec §8). */
  subscribe: (input: { email: string }, init?: CallApiInit) =>
    call<null>('subscribe', [input], init),
  /** The contact's lists (spec §3 newsletter contact); 404 when Brevo does not know it. */
  getContactInfo: (email: string, init?: CallApiInit) =>
    call<{ listIds: number[] }>('getContactInfo', [email], init),
  deleteContactInfo: (email: string, init?: CallApiInit) =>
    call<null>('deleteContactInfo', [email], init),
  /** 400 when the contact is already in the list or does not exist (spec §8). */
  addContactToList: (input: ListContactInput, init?: CallApiInit) =>
    call<ListChange>('addContactToList', [input], init),
  removeContactFromList: (input: ListContactInput, init?: CallApiInit) =>
    call<ListChange>('removeContactFromList', [input], init),
};
