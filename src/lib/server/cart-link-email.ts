/**
 * The French e-mail of a cart sent by a reseller to a client (spec §1, §2 "send the cart to a
 * client"; texts from `fr.json`, `mail.cartLink.*`): the seller and the reseller's shop name,
 * and the link that opens the cart (`?id&token`, spec §2 redirect-to-cart).
 */
import { t } from '../i18n/index.ts';
import type { MailAddress, TransactionalEmail } from './brevo/index.ts';
import { escapeHtml } from './password-reset-email.ts';

export function cartLinkEmail(input: {
  to: string;
  shopName: string;
  seller: string;
  link: string;
  sender: MailAddress;
}): TransactionalEmail {
  const shop = t('shop.name');
  const reseller = input.shopName === '' ? shop : input.shopName;
  const greeting = t('mail.cartLink.greeting');
  const intro = t('mail.cartLink.intro', { seller: input.seller, reseller, shop });
  const action = t('mail.cartLink.action');
  const outro = t('mail.cartLink.outro');
  const htmlContent = [
    '<!doctype html><html lang="fr"><body style="font-family:sans-serif;line-height:1.5">',
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(intro)}</p>`,
    `<p><a href="${escapeHtml(input.link)}">${escapeHtml(action)}</a></p>`,
    `<p>${escapeHtml(outro)}</p>`,
    '</body></html>',
  ].join('');
  return {
    sender: input.sender,
    to: [{ email: input.to }],
    subject: t('mail.cartLink.subject', { shop, reseller }),
    htmlContent,
    textContent: [greeting, intro, `${action} : ${input.link}`, outro].join('\n\n'),
    tags: ['cart-link'],
  };
}
