/**
 * Header account button (spec §2, §6): "Connecté" and the first name (the shop name for a
 * reseller) for a customer, linking to mes-informations; "Me connecter" for a visitor, linking
 * to /connexion, or, once hydrated, opening the login modal.
 */
import { useStore } from '@nanostores/react';
import { useMemo, type ReactNode } from 'react';
import { ACCOUNT_HOME, LOGIN_PATH } from '../lib/commerce/guards.ts';
import { createTranslator, type Messages } from '../lib/i18n/translate.ts';
import { $customer, $isAuthenticated } from '../lib/stores/customer.ts';
import { openLoginModal } from '../lib/stores/ui.ts';

export interface AccountButtonProps {
  messages: Messages;
  className?: string;
  children?: ReactNode;
}

export function AccountButton({ messages, className = '', children }: AccountButtonProps) {
  const t = useMemo(() => createTranslator(messages), [messages]);
  const customer = useStore($customer);
  // The marker cookie is a hint: it says "Connecté" at once, the name comes with the customer.
  const authenticated = useStore($isAuthenticated, { ssr: 'initial' }) || customer !== null;
  if (authenticated) {
    const name =
      customer === null ? '' : customer.isReseller ? customer.shopName : customer.firstName;
    return (
      <a href={ACCOUNT_HOME} className={`inline-flex ${className}`}>
        {children}
        <span className="sr-only xl:not-sr-only">
          {t('header.connected')}
          {name === '' ? '' : ` ${name}`}
        </span>
      </a>
    );
  }
  return (
    <a
      href={LOGIN_PATH}
      className={`inline-flex ${className}`}
      onClick={(event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        openLoginModal();
      }}
    >
      {children}
      <span className="sr-only xl:not-sr-only">{t('header.login')}</span>
    </a>
  );
}
