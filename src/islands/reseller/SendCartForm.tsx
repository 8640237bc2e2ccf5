/**
 * "Send the cart to a client" (spec §1, §2, §5 reseller area): the reseller picks one of their
 * sellers ("You need to select a seller too" otherwise; a single seller is preselected) and types
 * the client's e-mail; the shop mails the client a link that opens this cart, and the reseller
 * starts a new one.
 */
import { useStore } from '@nanostores/react';
import { useId, useState, type SubmitEvent } from 'react';
import { inputClass } from '../../lib/ui/classes.ts';
import { fieldErrors, SendCartInputSchema } from '../../lib/commerce/validation.ts';
import type { Translate } from '../../lib/i18n/translate.ts';
import { $cartErrors, $cartLoading, sendCartToClient } from '../../lib/stores/cart.ts';
import { TextField } from '../ui/TextField.tsx';
import { FormError, formText, SubmitButton } from '../ui/form.tsx';
import { CALL_ERROR_MESSAGES } from '../../lib/api/client.ts';

export const SEND_CART_MESSAGES = [
  // Any call may fail with these (upstream down or slow...): the island shows them in French.
  ...CALL_ERROR_MESSAGES,
  'reseller.sendCart',
  'reseller.sendIntro',
  'reseller.seller',
  'reseller.sellerPlaceholder',
  'reseller.clientEmail',
  'reseller.noSeller',
  'You need to select a seller too',
  'Invalid email',
  'validation.required',
  'validation.tooLong',
  'Too many attempts',
  'Login required',
  'Forbidden',
  'Cart not found',
  'Cart is empty',
  'common.loading',
] as const;

type Errors = Partial<Record<'seller' | 'email', string>>;

export function SendCartForm({
  sellers,
  t,
  onSent,
}: {
  sellers: readonly string[];
  t: Translate;
  /** Called with the address once the cart has gone. */
  onSent: (email: string) => void;
}) {
  const id = useId();
  const [errors, setErrors] = useState<Errors>({});
  const [pending, setPending] = useState(false);
  const loading = useStore($cartLoading);
  const apiError = useStore($cartErrors).send;

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const input = { seller: formText(data, 'seller'), email: formText(data, 'email') };
    const found = fieldErrors(SendCartInputSchema, input);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setPending(true);
    const sent = await sendCartToClient({ seller: input.seller.trim(), email: input.email.trim() });
    setPending(false);
    if (sent !== null) onSent(sent);
  }

  const sellerError = errors.seller === undefined ? undefined : t(errors.seller);
  return (
    <form
      noValidate
      className="flex flex-col gap-4"
      aria-labelledby={`${id}-title`}
      onSubmit={(e) => void submit(e)}
    >
      <h2 id={`${id}-title`} className="text-xl font-semibold">
        {t('reseller.sendCart')}
      </h2>
      <p className="text-sm text-neutral-700">{t('reseller.sendIntro')}</p>
      {sellers.length === 0 && <p className="text-sm text-neutral-700">{t('reseller.noSeller')}</p>}
      <div className="flex flex-col gap-1.5">
        <label htmlFor={`${id}-seller`} className="text-sm font-semibold text-neutral-800">
          {t('reseller.seller')}
        </label>
        <select
          id={`${id}-seller`}
          name="seller"
          // A reseller with a single seller has nothing to choose: it is preselected.
          defaultValue={sellers.length === 1 ? sellers[0] : ''}
          aria-invalid={sellerError === undefined ? undefined : true}
          aria-describedby={sellerError === undefined ? undefined : `${id}-seller-error`}
          className={inputClass(sellerError !== undefined)}
        >
          <option value="">{t('reseller.sellerPlaceholder')}</option>
          {sellers.map((seller) => (
            <option key={seller} value={seller}>
              {seller}
            </option>
          ))}
        </select>
        {sellerError !== undefined && (
          <p id={`${id}-seller-error`} className="text-sm font-semibold text-danger">
            {sellerError}
          </p>
        )}
      </div>
      <TextField
        name="email"
        type="email"
        autoComplete="off"
        required
        label={t('reseller.clientEmail')}
        error={errors.email === undefined ? undefined : t(errors.email)}
      />
      <FormError message={apiError?.message} t={t} />
      <SubmitButton pending={pending || loading} label={t('reseller.sendCart')} t={t} fullWidth />
    </form>
  );
}
