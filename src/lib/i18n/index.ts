/**
 * The shop's single i18next instance, initialised synchronously with the one French message
 * file (spec §1: single locale fr). Importable from anywhere: pages, components, islands.
 */
import i18next from 'i18next';
import fr from './fr.json' with { type: 'json' };
import { provideServerMessages } from './translate.ts';

export const LOCALE = 'fr';

type PluralSuffix = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other';
type PluralBase<K> = K extends `${infer Base}_${PluralSuffix}` ? Base : K;

/** Message keys of `fr.json`; plural keys (`x_one`, `x_other`) are used as `x` with a count. */
export type MessageKey = PluralBase<keyof typeof fr> | keyof typeof fr;

export const messages: Readonly<Record<string, string>> = fr;

export const i18n = i18next.createInstance();

// initAsync: false makes `t` usable right after this line (resources are inline).
// keySeparator / nsSeparator false: English sentences of the spec with '.' and ':' are keys.
// escapeValue false: Astro and React escape interpolated values themselves.
void i18n.init({
  lng: LOCALE,
  fallbackLng: LOCALE,
  supportedLngs: [LOCALE],
  resources: { [LOCALE]: { translation: fr } },
  initAsync: false,
  keySeparator: false,
  nsSeparator: false,
  returnNull: false,
  interpolation: { escapeValue: false },
});

/** Translates a message key of `fr.json`; `count` selects `_one` / `_other` plural forms. */
export function t(key: MessageKey, options?: Record<string, unknown>): string {
  if (options !== undefined) return interpolated(key, options) ?? i18n.t(key, options);
  // Messages without options are constant: a build renders the same labels on 10,000 pages,
  // and an i18next lookup costs microseconds each.
  let text = constantMessages.get(key);
  if (text === undefined) {
    text = i18n.t(key, {});
    constantMessages.set(key, text);
  }
  return text;
}

const constantMessages = new Map<string, string>();

const plurals = new Intl.PluralRules(LOCALE);
/** A `{{name}}` placeholder, the one interpolation syntax the messages use. */
const PLACEHOLDER = /\{\{\s*(\w+)\s*\}\}/g;

/**
 * A message cut at its placeholders: texts at even indexes, placeholder names at odd ones;
 * null for a message with another syntax (nesting, a format).
 */
type Parts = readonly string[] | null;
const compiled = new Map<string, Parts>();

function partsOf(template: string): Parts {
  let parts = compiled.get(template);
  if (parts === undefined) {
    const cut: string[] = [];
    let last = 0;
    for (const match of template.matchAll(PLACEHOLDER)) {
      cut.push(template.slice(last, match.index), match[1] ?? '');
      last = match.index + match[0].length;
    }
    cut.push(template.slice(last));
    const placeholders = (cut.length - 1) / 2;
    parts =
      template.includes('$t(') || template.split('{{').length - 1 !== placeholders ? null : cut;
    compiled.set(template, parts);
  }
  return parts;
}

/**
 * What i18next says for a message with options, without i18next (its lookup, plural
 * resolution and interpolation cost ~20 µs a call, and a listing makes dozens: facet counts,
 * pagination labels): the `_one` / `_other` form chosen by `count` as i18next chooses it
 * (Intl.PluralRules), `{{name}}` replaced by a string or number value as it is (escapeValue
 * off). Undefined for anything else (an unknown key, a missing or other value, another
 * syntax): i18next answers those (tests/unit/i18n.test.ts compares both on every message).
 */
function interpolated(key: string, options: Record<string, unknown>): string | undefined {
  const count = options.count;
  const template =
    (typeof count === 'number' ? messages[`${key}_${plurals.select(count)}`] : undefined) ??
    messages[key];
  const parts = template === undefined ? null : partsOf(template);
  if (parts === null) return undefined;
  let text = parts[0] ?? '';
  for (let i = 1; i < parts.length; i += 2) {
    const value = options[parts[i] ?? ''];
    if (typeof value !== 'string' && typeof value !== 'number') return undefined;
    text += String(value) + (parts[i + 1] ?? '');
  }
  return text;
}

export {} from './config.ts';

/**
 * The raw messages of `keys` (with their plural forms), for an island's `createTranslator`
 * (`translate.ts`): islands get the few texts they show, not i18next and the whole file.
 */
export function pickMessages(keys: readonly MessageKey[]): Record<string, string> {
  // Every product card asks for the same keys: pick once per key list, copy per call.
  let picked = pickedMessages.get(keys);
  if (picked === undefined) {
    picked = {};
    for (const key of keys) {
      for (const [name, text] of Object.entries(messages)) {
        if (name === key || name.startsWith(`${key}_`)) picked[name] = text;
      }
    }
    pickedMessages.set(keys, picked);
  }
  return { ...picked };
}

const pickedMessages = new WeakMap<readonly MessageKey[], Record<string, string>>();

provideServerMessages((keys) => pickMessages(keys as readonly MessageKey[]));
