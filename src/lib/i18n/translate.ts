/**
 * The message lookup islands use: the same French texts as `t()` (src/lib/i18n/index.ts) for
 * the few keys an island was handed (`pickMessages`), without shipping i18next and the whole
 * message file to the browser. Same syntax as i18next for what the shop uses: `{{name}}`
 * interpolation and `_one` / `_other` plural forms chosen by `count`.
 */
export type Messages = Readonly<Record<string, string>>;
export type Translate = (key: string, options?: Readonly<Record<string, unknown>>) => string;
/** The messages of `keys` with their plural forms (`pickMessages` of index.ts). */
export type PickMessages = (keys: readonly string[]) => Messages;

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

/** The message key of the generic error, the text of an error an island has no text for. */
export const GENERIC_ERROR_KEY = 'error.generic';

/**
 * The text of an error an island shows (a store's error slot: a message key, often the API's
 * own message): its French text when the island was handed it, else the generic error. Never
 * the raw key nor the API's English: the login form with the customer service down used to
 * show `error.upstreamUnavailable` as it is. The one home of that rule: forms (`FormError`),
 * lists and notifications show errors through it.
 */
export function errorText(t: Translate, key: string | null | undefined): string {
  if (key === null || key === undefined || key === '') return '';
  const text = t(key);
  return text === key ? t(GENERIC_ERROR_KEY) : text;
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

/**
 * The id of the page's JSON script of texts (BaseLayout, IslandMessages.astro): those of the
 * header, the search panel, the newsletter forms, the shop shell and the card buttons, written
 * once per page (src/layouts/page-messages.ts).
 */
export const PAGE_MESSAGES_ID = 'page-messages';

/** The JSON script `id` of the page (IslandMessages.astro); {} without a document. */
export function pageMessages(id: string): Messages {
  if (typeof document === 'undefined') return {};
  return parseMessages(document.getElementById(id)?.textContent);
}

// Set by the server's message module (index.ts), which islands must not import: it would ship
// i18next and the whole message file to the browser.
let serverPick: PickMessages = () => ({});

/** Called once by index.ts: how islands rendered on the server get their texts. */
export function provideServerMessages(pick: PickMessages): void {
  serverPick = pick;
}

/**
 * An island's texts without passing them as props, which Astro serialises into an attribute of
 * every page (20 texts on each of 10,000 product pages): on the server the messages of `keys`,
 * in the browser the page's JSON script `id` that IslandMessages.astro wrote from the same keys,
 * so both renders show the same texts.
 */
export function islandMessages(id: string, keys: readonly string[]): Messages {
  return typeof document === 'undefined' ? serverPick(keys) : pageMessages(id);
}
