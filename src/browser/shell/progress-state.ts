/**
 * The navigation progress bar's timing (spec §9: throttle 200 ms, duration 5000 ms, hides
 * after 500 ms; spec §4: a navigation failure marks it failed) and which clicks, form
 * submissions and `navigate` events start a page load. No DOM: unit tests drive it with fake
 * timers; `progress-bar.ts` binds it to the page.
 *
 * Views: `hidden` (no bar, fading out if one was shown), `running` (the CSS transition grows it
 * towards 90 % over the duration), `done` (full width) and `failed` (full width, red).
 */

/** spec §9: a navigation shows the bar only when still pending after this delay. */
export const PROGRESS_THROTTLE_MS = 200;
/** spec §9: the bar grows towards 90 % over this duration. */
export const PROGRESS_DURATION_MS = 5000;
/** spec §9: a finished (or failed) bar hides this long after the end. */
export const PROGRESS_HIDE_MS = 500;
/**
 * A navigation that has not left the page this long after it started did not replace it (a
 * 204 answer, a download) or still hangs: the bar completes rather than stay at 90 %. The
 * browser's own loading indicator still tells a hanging load.
 */
const PROGRESS_SETTLE_MS = PROGRESS_DURATION_MS;

export type ProgressView = 'hidden' | 'running' | 'done' | 'failed';
export type ProgressPhase = 'idle' | 'waiting' | 'running' | 'done' | 'failed';

export interface ProgressOptions {
  render: (view: ProgressView) => void;
  throttleMs?: number;
  hideMs?: number;
  settleMs?: number;
}

export interface ProgressController {
  readonly phase: ProgressPhase;
  /** Number of the current navigation: a late failure report names the one it is about. */
  readonly navigation: number;
  /** A navigation started: the bar shows if it is still pending after the throttle. */
  start(): void;
  /** The navigation ended without leaving the page: complete, then hide. */
  finish(): void;
  /**
   * The navigation failed: a shown bar turns red, then hides; one not shown yet stays hidden.
   * With `navigation`, only if no newer navigation started since.
   */
  fail(navigation?: number): void;
  /** The page is being left (pagehide): the bar stays as it is, no timer runs on. */
  freeze(): void;
  /** Back to no bar at once (a page restored from the back/forward cache). */
  reset(): void;
}

export function createProgress({
  render,
  throttleMs = PROGRESS_THROTTLE_MS,
  hideMs = PROGRESS_HIDE_MS,
  settleMs = PROGRESS_SETTLE_MS,
}: ProgressOptions): ProgressController {
  let phase: ProgressPhase = 'idle';
  let navigation = 0;
  // The pending step (show after the throttle, hide after the end) and the settle timer.
  let step: ReturnType<typeof setTimeout> | undefined;
  let settle: ReturnType<typeof setTimeout> | undefined;

  const clear = () => {
    clearTimeout(step);
    clearTimeout(settle);
  };
  const enter = (next: ProgressPhase, view: ProgressView) => {
    phase = next;
    render(view);
  };
  // The navigation ended: a bar not shown yet never shows; a shown one fills (or turns red),
  // then hides after hideMs.
  const end = (outcome: 'done' | 'failed') => {
    if (phase !== 'waiting' && phase !== 'running') return;
    clear();
    if (phase === 'waiting') {
      phase = 'idle';
      return;
    }
    enter(outcome, outcome);
    step = setTimeout(() => {
      enter('idle', 'hidden');
    }, hideMs);
  };
  const finish = () => {
    end('done');
  };

  return {
    get phase() {
      return phase;
    },
    get navigation() {
      return navigation;
    },
    start() {
      navigation += 1;
      if (phase === 'running') {
        // Another navigation replaced a pending one: the bar keeps growing, its settle restarts.
        clearTimeout(settle);
      } else {
        clear();
        enter('waiting', 'hidden');
        step = setTimeout(() => {
          enter('running', 'running');
        }, throttleMs);
      }
      settle = setTimeout(finish, settleMs);
    },
    finish,
    fail(which) {
      if (which === undefined || which === navigation) end('failed');
    },
    freeze() {
      clear();
    },
    reset() {
      clear();
      enter('idle', 'hidden');
    },
  };
}

// -- what starts a page load -------------------------------------------------------------------

interface Place {
  origin: string;
  pathname: string;
  search: string;
  hash: string;
  protocol: string;
}

function parse(href: string, base: string): Place | null {
  try {
    return new URL(href, base);
  } catch {
    return null;
  }
}

/**
 * `href` (resolved against the current page `current`) loads a page of this shop: same origin,
 * http(s), and not only a fragment of the current page (that scrolls, it loads nothing).
 */
export function loadsShopPage(href: string, current: string): boolean {
  const target = parse(href, current);
  const here = parse(current, current);
  if (target === null || here === null) return false;
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return false;
  if (target.origin !== here.origin) return false;
  const samePage = target.pathname === here.pathname && target.search === here.search;
  return !(samePage && target.hash !== '');
}

/** The browsing context a `target` attribute names: this window, or another one. */
const opensHere = (target: string) => target === '' || target.toLowerCase() === '_self';

export interface ClickFacts {
  button: number;
  metaKey: boolean;
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  defaultPrevented: boolean;
}

export interface LinkFacts {
  href: string;
  target: string;
  download: boolean;
}

/**
 * A click on `link` loads another shop page in this window: a plain left click (no modifier:
 * those open tabs and windows or download) that no script handled, on a link opening here,
 * not a download, to a page of this shop that is not a fragment of this one.
 */
export function clickStartsNavigation(
  click: ClickFacts,
  link: LinkFacts,
  current: string,
): boolean {
  if (click.defaultPrevented || click.button !== 0) return false;
  if (click.metaKey || click.ctrlKey || click.shiftKey || click.altKey) return false;
  if (!opensHere(link.target) || link.download) return false;
  return loadsShopPage(link.href, current);
}

export interface SubmitFacts {
  defaultPrevented: boolean;
  /** The form's method, or its submitter's `formmethod`. */
  method: string;
  /** The resolved action, or its submitter's `formaction`. */
  action: string;
  /** The form's target, or its submitter's `formtarget`. */
  target: string;
}

/**
 * A form submission loads a shop page here: not handled by a script, not a dialog form, opened
 * in this window, to this shop. GET forms (the search bar without JavaScript) and plain POST
 * forms alike: either replaces the page.
 */
export function submitStartsNavigation(submit: SubmitFacts, current: string): boolean {
  if (submit.defaultPrevented || submit.method.toLowerCase() === 'dialog') return false;
  if (!opensHere(submit.target)) return false;
  const action = parse(submit.action || current, current);
  if (action === null) return false;
  // A GET form replaces the query: a fragment in the action does not make it same-page.
  return loadsShopPage(`${action.origin}${action.pathname}`, current);
}

/** What the Navigation API's `navigate` event tells of a navigation. */
export interface NavigateFacts {
  hashChange: boolean;
  downloadRequest: string | null;
  destination: { url: string; sameDocument: boolean };
}

/**
 * A `navigate` event (Navigation API) that loads another shop page: not a fragment, not a
 * same-document history change (pushState), not a download, to this shop's origin.
 */
export function navigateStartsNavigation(event: NavigateFacts, current: string): boolean {
  if (event.hashChange || event.destination.sameDocument || event.downloadRequest !== null) {
    return false;
  }
  const target = parse(event.destination.url, current);
  const here = parse(current, current);
  return target !== null && here !== null && target.origin === here.origin;
}
