/**
 * The message lookup islands use: the same French texts as `t()` (src/lib/i18n/index.ts) for
 * the few keys an island was handed (`pickMessages`), without shipping i18next and the whole
 * message file to the browser. Same syntax as i18next for what the shop uses: `{{name}}`
 * interpolation and `_one` / `_other` plural forms chosen by `count`.
 */
export type Messages = Readonly<Record<string, string>>;
export type Translate = (key: string, options?: Readonly<Record<string, unknown>>) => string;

const plurals = new Intl.PluralRules('fr');

/** A translator over `messages`; an unknown key is returned as it is (as i18next does). */
export function createTranslator(messages: Messages): Translate {
  return (key, options) => {
    const count = options?.count;
    const plural =
      typeof count === 'number' ? messages[`${key}_${plurals.select(count)}`] : undefined;
    const template = plural ?? messages[key] ?? key;
    if (!options) return template;
    return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => {
      const value = options[name];
      return typeof value === 'string' || typeof value === 'number' ? String(value) : whole;
    });
  };
}

/**
 * Messages the page wrote as JSON (a `data-messages` attribute, a JSON script): the string
 * entries of an object; {} for anything else (absent, not JSON, an array...), so a page edited
 * by hand shows the keys rather than breaking the script.
 */
export function parseMessages(json: string | null | undefined): Messages {
  if (json === null || json === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return {};
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
}
