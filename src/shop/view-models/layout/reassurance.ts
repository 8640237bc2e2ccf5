/**
 * The reassurance banner's three columns (spec §2 Header): from the `REASSURANCE` JSON
 * setting, else the spec's defaults 'Livraison rapide', '4 magasins', 'Circuit court'.
 */
import { z } from 'zod';
import { t } from '../../../lib/i18n/index.ts';
import { ICONS, type IconName } from '../../../lib/ui/icons.ts';

const IconNameSchema = z
  .string()
  .refine((name): name is IconName => Object.hasOwn(ICONS, name), { message: 'Unknown icon' });

export const ReassuranceItemSchema = z.strictObject({
  title: z.string().trim().min(1),
  text: z.string().trim().default(''),
  icon: IconNameSchema.default('check'),
});

export const ReassuranceSchema = z.array(ReassuranceItemSchema).length(3);

export type ReassuranceItem = z.output<typeof ReassuranceItemSchema>;

export function defaultReassurance(): ReassuranceItem[] {
  return [
    {
      title: t('reassurance.fastDelivery'),
      text: t('reassurance.fastDeliveryText'),
      icon: 'truck',
    },
    { title: t('reassurance.stores'), text: t('reassurance.storesText'), icon: 'store' },
    {
      title: t('reassurance.shortCircuit'),
      text: t('reassurance.shortCircuitText'),
      icon: 'leaf',
    },
  ];
}

/**
 * The configured columns, or the defaults when the setting is unset. An invalid setting is
 * reported once and replaced by the defaults: a typo must not take the shop down.
 */
export function parseReassurance(json: string | undefined): ReassuranceItem[] {
  if (json === undefined || json.trim() === '') return defaultReassurance();
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    warnOnce('REASSURANCE is not valid JSON');
    return defaultReassurance();
  }
  const parsed = ReassuranceSchema.safeParse(value);
  if (!parsed.success) {
    warnOnce(`REASSURANCE is invalid: ${z.prettifyError(parsed.error)}`);
    return defaultReassurance();
  }
  return parsed.data;
}

let warned = false;
function warnOnce(message: string): void {
  if (warned) return;
  warned = true;
  console.warn(`[reassurance] ${message}; using the defaults.`);
}
