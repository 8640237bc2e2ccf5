/**
 * The tag-manager container of spec §7 ("a tag manager script receives data pushes"): which
 * container ids the shop accepts, the container's script URL, and the `gtm.js` start push that
 * Google's snippet makes, here made by a bundled module (no inline snippet: the CSP allows no
 * `'unsafe-inline'` script). Pure; `loadContainer` takes the document and the data layer;
 * `pushConsentCommand` pushes gtag's Consent Mode commands.
 */
import type { ConsentModeState } from './consent.ts';

/** Google Tag Manager's origin: the container script comes from there. */
export const TAG_MANAGER_ORIGIN = 'https://www.googletagmanager.com';

// A web container id as Tag Manager shows it: `GTM-` and upper-case letters and digits.
const CONTAINER_ID = /^GTM-[A-Z0-9]{4,12}$/;

export class TagManagerSettingError extends Error {
  readonly code = 'INVALID_GTM_CONTAINER_ID';
}

/** Whether `value` is a container id such as `GTM-AB12CD3`. */
export function isContainerId(value: string): boolean {
  return CONTAINER_ID.test(value);
}

/**
 * `GTM_CONTAINER_ID`: null when unset or blank (no container), the id when valid; throws
 * TagManagerSettingError otherwise, so a typo fails the build rather than loading nothing.
 */
export function parseContainerId(value: string | undefined | null): string | null {
  const text = value?.trim() ?? '';
  if (text === '') return null;
  if (!isContainerId(text)) {
    throw new TagManagerSettingError(
      `GTM_CONTAINER_ID: "${text.slice(0, 40)}" is not a container id like GTM-XXXXXXX`,
    );
  }
  return text;
}

/** The container script's URL. */
export function containerScriptUrl(containerId: string): string {
  return `${TAG_MANAGER_ORIGIN}/gtm.js?id=${encodeURIComponent(containerId)}`;
}

/** What Google's snippet pushes before the container script (its start time). */
export function containerStartEvent(now: number): { 'gtm.start': number; event: 'gtm.js' } {
  return { 'gtm.start': now, event: 'gtm.js' };
}

interface ContainerHost {
  dataLayer?: unknown[];
}

/** What `loadContainer` uses of the document. */
export interface ContainerDocument {
  querySelector(selector: string): unknown;
  createElement(tag: 'script'): Pick<HTMLScriptElement, 'async' | 'src' | 'dataset'>;
  head: { append(node: never): void };
}

/**
 * Pushes the start event and appends the container's async script to `document.head`, once per
 * document (a second call finds the script and does nothing). Events pushed earlier stay in the
 * data layer: the container reads them when it starts.
 */
export function loadContainer(
  containerId: string,
  document: ContainerDocument,
  host: ContainerHost,
  now: number = Date.now(),
): boolean {
  if (!isContainerId(containerId)) return false;
  const src = containerScriptUrl(containerId);
  if (document.querySelector(`script[data-tag-manager]`)) return false;
  host.dataLayer ??= [];
  host.dataLayer.push(containerStartEvent(now));
  const script = document.createElement('script');
  script.async = true;
  script.src = src;
  script.dataset.tagManager = containerId;
  document.head.append(script as never);
  return true;
}

/** A Consent Mode v2 command: the page's defaults, or the shopper's choice. */
export type ConsentCommand = 'default' | 'update';

/**
 * Pushes Google's `gtag('consent', command, state)` onto the data layer. Tag Manager reads a
 * gtag command only from an `Arguments` object (a plain array is taken for data, and ignored),
 * so this pushes the `arguments` of a function called like Google's
 * `function gtag(){dataLayer.push(arguments)}`.
 */
export function pushConsentCommand(
  host: ContainerHost,
  command: ConsentCommand,
  state: Readonly<ConsentModeState>,
): void {
  const layer = (host.dataLayer ??= []);
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- read through `arguments`
  function gtag(..._command: unknown[]): void {
    // The Arguments object itself, not a copy: Tag Manager reads gtag commands only so.
    // eslint-disable-next-line prefer-rest-params
    layer.push(arguments);
  }
  gtag('consent', command, { ...state });
}
