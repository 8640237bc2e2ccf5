/** Brevo transactional e-mail (`POST /smtp/email`). */
import { z } from 'zod';
import type { BrevoClient } from './client.ts';

export interface MailAddress {
  email: string;
  name?: string | undefined;
}

export interface TransactionalEmail {
  sender: MailAddress;
  to: readonly MailAddress[];
  subject: string;
  htmlContent: string;
  textContent?: string | undefined;
  tags?: readonly string[] | undefined;
}

const SendReplySchema = z.object({ messageId: z.string() });

/** Sends one e-mail; resolves with Brevo's message id. */
export async function sendTransactionalEmail(
  client: BrevoClient,
  email: TransactionalEmail,
): Promise<{ messageId: string }> {
  return client.post('smtp/email', SendReplySchema, {
    sender: email.sender,
    to: email.to,
    subject: email.subject,
    htmlContent: email.htmlContent,
    ...(email.textContent === undefined ? {} : { textContent: email.textContent }),
    ...(email.tags === undefined ? {} : { tags: email.tags }),
  });
}
