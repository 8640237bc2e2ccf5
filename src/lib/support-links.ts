/**
 * spec §2 / §9 support site links: the top bar's help link and the menu sidebar's FAQ and
 * contact (new-request) links. With `SUPPORT_URL` set they open the support site: the FAQ is
 * the site itself (or `SUPPORT_FAQ_URL`), a new request `{SUPPORT_URL}/requests/new` (or
 * `SUPPORT_REQUEST_URL`); unset, the shop's own content pages `/aide`, `/faq` and `/contact`.
 * Pure: `src/shop/view-models/layout/links.ts` hands it the settings.
 */

export interface SupportSettings {
  /** SUPPORT_URL: the support site. */
  base?: string | undefined;
  /** SUPPORT_FAQ_URL: its FAQ, when not the site itself. */
  faq?: string | undefined;
  /** SUPPORT_REQUEST_URL: its new-request page, when not `{base}/requests/new`. */
  request?: string | undefined;
}

export interface SupportLink {
  url: string;
  /** Another site: opened in a new tab (`target="_blank" rel="noopener"`). */
  external: boolean;
}

export interface SupportLinks {
  help: SupportLink;
  faq: SupportLink;
  contact: SupportLink;
}

/** The shop's own pages when no support site is configured (content pages of the seed). */
export const LOCAL_SUPPORT_PATHS = { help: '/aide', faq: '/faq', contact: '/contact' } as const;

/** `value` as a link: an absolute http(s) URL (trailing slashes dropped) or a local path; else null. */
function readLink(value: string | undefined): SupportLink | null {
  const text = value?.trim() ?? '';
  if (text === '') return null;
  if (text.startsWith('/') && !text.startsWith('//') && !text.includes('\\')) {
    return { url: text, external: false };
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) {
    return null;
  }
  return { url: text.replace(/\/+$/, ''), external: true };
}

const local = (url: string): SupportLink => ({ url, external: false });

/** The three support links of the settings (each setting that is no usable link is ignored). */
export function supportLinks(settings: SupportSettings): SupportLinks {
  const base = readLink(settings.base);
  const faqSetting = readLink(settings.faq);
  const faq = faqSetting ?? base ?? local(LOCAL_SUPPORT_PATHS.faq);
  const contact =
    readLink(settings.request) ??
    (base === null
      ? local(LOCAL_SUPPORT_PATHS.contact)
      : { url: `${base.url}/requests/new`, external: base.external });
  return { help: base ?? faqSetting ?? local(LOCAL_SUPPORT_PATHS.help), faq, contact };
}
