/**
 * Login modal (spec §2, §4 UI state): two screens, register by default, switchable to login and
 * back; opening resets the form and errors, closing clears the errors and returns to the login
 * screen (the ui store's rules). On success it closes and the shopper goes to mes-informations,
 * or to the page a guard kept for after login.
 */
import { useStore } from '@nanostores/react';
import type { Translate } from '../../lib/i18n/translate.ts';
import { $loginModal, closeLoginModal, showLoginScreen } from '../../lib/stores/ui.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { features } from '../../lib/env-client.ts';
import { takeReturnPath } from './after-login.ts';
import { AuthForms } from './AuthForms.tsx';

export function LoginModal({ t }: { t: Translate }) {
  const modal = useStore($loginModal);
  return (
    <Dialog
      open={modal.open}
      onClose={closeLoginModal}
      title={t('account.title')}
      closeLabel={t('login.close')}
    >
      <AuthForms
        // A new key on each opening remounts the forms: fields and errors start empty.
        key={modal.resetKey}
        screen={modal.screen}
        onScreenChange={showLoginScreen}
        t={t}
        onSuccess={() => {
          closeLoginModal();
          window.location.assign(takeReturnPath(undefined, features.resellerArea));
        }}
      />
    </Dialog>
  );
}
