/**
 * The French e-mail of a cart sent by a reseller to a client (spec §1, §2 "send the cart to a
 * client"; texts from `fr.json`, `mail.cartLink.*`): the seller and the reseller's shop name,
 * and the link that opens the cart (`?id&token`, spec §2 redirect-to-cart).
 */
import { t } from '../i18n/index.ts';
import type { MailAddress, TransactionalEmail } from './brevo/index.ts';
import { linkEmail } from './link-email.ts';

export function cartLinkEmail(input: {
  to: string;
  shopName: string;
  seller: string;
  link: string;
  sender: MailAddress;
}): TransactionalEmail {
  const shop = t('shop.name');
  const reseller = input.shopName === '' ? shop : input.shopName;
  return linkEmail({
    sender: input.sender,
    to: { email: input.to },
    subject: t('mail.cartLink.subject', { shop, reseller }),
    before: [
      t('mail.cartLink.greeting'),
      t('mail.cartLink.intro', { seller: input.seller, reseller, shop }),
    ],
    action: { text: t('mail.cartLink.action'), link: input.link },
    after: [t('mail.cartLink.outro')],
    tag: 'cart-link',
  });
}
