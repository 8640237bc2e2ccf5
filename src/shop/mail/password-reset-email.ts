/**
 * The French password-reset e-mail (texts from `fr.json`, `mail.passwordReset.*`): a link to
 * `/mot-de-passe?resetToken=...`, valid one hour and once.
 */
import type { Customer } from '../../lib/commerce/types.ts';
import { t } from '../../lib/i18n/index.ts';
import type { MailAddress, TransactionalEmail } from '../connectors/brevo/index.ts';
import { linkEmail } from './link-email.ts';

export function passwordResetEmail(input: {
  customer: Pick<Customer, 'email' | 'firstName' | 'lastName'>;
  link: string;
  sender: MailAddress;
}): TransactionalEmail {
  const { customer, link } = input;
  const shop = t('shop.name');
  const name = `${customer.firstName} ${customer.lastName}`.trim();
  return linkEmail({
    sender: input.sender,
    to: { email: customer.email, ...(name === '' ? {} : { name }) },
    subject: t('mail.passwordReset.subject', { shop }),
    before: [
      t('mail.passwordReset.greeting', { firstName: customer.firstName }),
      t('mail.passwordReset.intro', { shop }),
    ],
    action: { text: t('mail.passwordReset.action'), link },
    after: [t('mail.passwordReset.expiry'), t('mail.passwordReset.ignore')],
    tag: 'password-reset',
  });
}
