/**
 * /connexion and /inscription (spec §2): the login and registration forms on a page, the same
 * as the modal's. After login the shopper goes to the path a guard kept, else mes-informations;
 * a reseller to the reseller area (`after-login.ts`).
 */
import { useMemo, useState } from 'react';
import { createTranslator, type Messages } from '../../lib/i18n/translate.ts';
import { features } from '../../lib/env-client.ts';
import { takeReturnPath } from './after-login.ts';
import { AuthForms, type AuthScreen } from './AuthForms.tsx';

export { AUTH_FORMS_MESSAGES as AUTH_PAGE_MESSAGES } from './AuthForms.tsx';

export function AuthPage({
  screen: initial,
  messages,
  home,
  allowRegister = true,
}: {
  screen: AuthScreen;
  messages: Messages;
  /** Where a login with no kept path goes (default: the account's mes-informations). */
  home?: string;
  allowRegister?: boolean;
}) {
  const t = useMemo(() => createTranslator(messages), [messages]);
  const [screen, setScreen] = useState<AuthScreen>(initial);
  return (
    <AuthForms
      screen={screen}
      onScreenChange={setScreen}
      t={t}
      headingLevel={1}
      allowRegister={allowRegister}
      onSuccess={() => {
        window.location.assign(takeReturnPath(home, features.resellerArea));
      }}
    />
  );
}
