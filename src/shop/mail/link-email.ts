/**
 * The shape of the shop's transactional e-mails that carry one link (password reset, a cart
 * sent by a reseller): French paragraphs around the link, in HTML (every text escaped) and in
 * plain text.
 */
import { escapeHtml } from '../../lib/commerce/text.ts';
import type { MailAddress, TransactionalEmail } from '../connectors/brevo/index.ts';

export { escapeHtml };

export function linkEmail(input: {
  sender: MailAddress;
  to: MailAddress;
  subject: string;
  /** Paragraphs before the link. */
  before: readonly string[];
  action: { text: string; link: string };
  /** Paragraphs after the link. */
  after: readonly string[];
  tag: string;
}): TransactionalEmail {
  const { action } = input;
  const paragraph = (text: string) => `<p>${escapeHtml(text)}</p>`;
  const htmlContent = [
    '<!doctype html><html lang="fr"><body style="font-family:sans-serif;line-height:1.5">',
    ...input.before.map(paragraph),
    `<p><a href="${escapeHtml(action.link)}">${escapeHtml(action.text)}</a></p>`,
    ...input.after.map(paragraph),
    '</body></html>',
  ].join('');
  return {
    sender: input.sender,
    to: [input.to],
    subject: input.subject,
    htmlContent,
    textContent: [...input.before, `${action.text} : ${action.link}`, ...input.after].join('\n\n'),
    tags: [input.tag],
  };
}
