/** Locale, currency and country of the shop (spec §3 locale config, §9). */
export interface I18nConfig {
  locale: string;
  currency: string;
  country: string;
}

export const I18N_CONFIG_MISSING_MESSAGE =
  'Following fields are missing in the i18n configuration: ';

/**
 * Returns the trimmed i18n configuration, or throws the spec's startup error naming every
 * missing or blank field, in the order locale, currency, country (spec §5), e.g.
 * `Following fields are missing in the i18n configuration: currency, country`.
 */
export function resolveI18nConfig(input: {
  locale?: string | null | undefined;
  currency?: string | null | undefined;
  country?: string | null | undefined;
}): I18nConfig {
  const locale = input.locale?.trim() ?? '';
  const currency = input.currency?.trim() ?? '';
  const country = input.country?.trim() ?? '';
  const missing = Object.entries({ locale, currency, country })
    .filter(([, value]) => value === '')
    .map(([field]) => field);
  if (missing.length > 0) {
    throw new Error(I18N_CONFIG_MISSING_MESSAGE + missing.join(', '));
  }
  return { locale, currency, country };
}
