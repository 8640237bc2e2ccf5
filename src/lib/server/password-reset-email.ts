/**
 * The French password-reset e-mail (texts from `fr.json`, `mail.passwordReset.*`): a link to
 * `/mot-de-passe?resetToken=...`, valid one hour and once.
 */
import type { Customer } from '../commerce/types.ts';
import { t } from '../i18n/index.ts';
import type { MailAddress, TransactionalEmail } from './brevo/index.ts';

export const escapeHtml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

export function passwordResetEmail(input: {
  customer: Pick<Customer, 'email' | 'firstName' | 'lastName'>;
  link: string;
  sender: MailAddress;
}): TransactionalEmail {
  const { customer, link } = input;
  const shop = t('shop.name');
  const greeting = t('mail.passwordReset.greeting', { firstName: customer.firstName });
  const intro = t('mail.passwordReset.intro', { shop });
  const action = t('mail.passwordReset.action');
  const expiry = t('mail.passwordReset.expiry');
  const ignore = t('mail.passwordReset.ignore');
  const htmlContent = [
    '<!doctype html><html lang="fr"><body style="font-family:sans-serif;line-height:1.5">',
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(intro)}</p>`,
    `<p><a href="${escapeHtml(link)}">${escapeHtml(action)}</a></p>`,
    `<p>${escapeHtml(expiry)}</p>`,
    `<p>${escapeHtml(ignore)}</p>`,
    '</body></html>',
  ].join('');
  const name = `${customer.firstName} ${customer.lastName}`.trim();
  return {
    sender: input.sender,
    to: [{ email: customer.email, ...(name === '' ? {} : { name }) }],
    subject: t('mail.passwordReset.subject', { shop }),
    htmlContent,
    textContent: [greeting, intro, `${action} : ${link}`, expiry, ignore].join('\n\n'),
    tags: ['password-reset'],
  };
}
