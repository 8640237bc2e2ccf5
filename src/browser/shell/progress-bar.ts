/**
 * The navigation progress bar (spec §4, §9): a thin decorative bar at the top of the window
 * (`.nav-progress` in global.css, `aria-hidden`: the browser already tells assistive
 * technologies a page is loading) while the shopper waits for the next page. Timing and
 * filters are in `progress-state.ts`.
 *
 * The shop is a multi-page app: every navigation loads a new document, which replaces this
 * one, bar included. So the bar:
 * - starts when a page load of the shop starts: with the Navigation API (`window.navigation`,
 *   Chromium) on its `navigate` event, which covers links, forms and script navigations and
 *   leaves out what no script lets through, fragments, same-document history changes and
 *   downloads; without it, on a plain left click on an internal link (no modifier key, opening
 *   here, no `download`, not a fragment of this page) or a form submission to the shop that
 *   no script took over;
 * - shows only if the load is still pending after 200 ms, then grows towards 90 % over
 *   5000 ms (a CSS transition);
 * - completes and hides 500 ms later when the load ends without leaving the page: a 204 answer
 *   or a download tell nothing to the page, so a load that has not left it after 5000 ms
 *   (no `pagehide`) counts as ended;
 * - turns red, then hides 500 ms later, when the Navigation API reports the load failed
 *   (`navigateerror`: the shopper stopped it, or a script aborted it). A newer navigation also
 *   aborts the pending one (`navigateerror` just before its own `navigate`): the failure is
 *   judged a task later and ignored if another navigation started meanwhile;
 * - is left as it is on `pagehide` (the next page replaces it; a view transition fades it out
 *   with the old page) and reset when the page comes back from the back/forward cache.
 */
import {
  clickStartsNavigation,
  createProgress,
  navigateStartsNavigation,
  submitStartsNavigation,
  type ProgressView,
} from './progress-state.ts';

let bar: HTMLElement | null = null;

function render(view: ProgressView): void {
  if (bar === null) {
    // Created on the first navigation, hidden, so the growth starts from nothing.
    bar = document.createElement('div');
    bar.className = 'nav-progress';
    bar.setAttribute('aria-hidden', 'true');
    document.body.append(bar);
  }
  bar.dataset.state = view;
}

const progress = createProgress({ render });
const here = () => window.location.href;
// Typed as always there; Firefox and Safari before 26.2 have none.
const navigation = (window as { navigation?: Navigation }).navigation;

if (navigation) {
  navigation.addEventListener('navigate', (event) => {
    if (navigateStartsNavigation(event, here())) progress.start();
  });
  navigation.addEventListener('navigateerror', () => {
    const failed = progress.navigation;
    setTimeout(() => {
      progress.fail(failed);
    }, 0);
  });
} else {
  // Bubbling to the window: scripts that take a click or a submission over (the cart and login
  // links, the islands' forms) have called preventDefault by then.
  window.addEventListener('click', (event) => {
    const link =
      event.target instanceof Element ? event.target.closest('a[href], area[href]') : null;
    if (!(link instanceof HTMLAnchorElement || link instanceof HTMLAreaElement)) return;
    const facts = { href: link.href, target: link.target, download: link.hasAttribute('download') };
    if (clickStartsNavigation(event, facts, here())) progress.start();
  });
  window.addEventListener('submit', (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement)) return;
    const by = event.submitter;
    const submitter = by instanceof HTMLButtonElement || by instanceof HTMLInputElement ? by : null;
    const facts = {
      defaultPrevented: event.defaultPrevented,
      method: submitter?.getAttribute('formmethod') ?? form.method,
      action: submitter?.hasAttribute('formaction') ? submitter.formAction : form.action,
      target: submitter?.getAttribute('formtarget') ?? form.target,
    };
    if (submitStartsNavigation(facts, here())) progress.start();
  });
}

window.addEventListener('pagehide', () => {
  progress.freeze();
});
window.addEventListener('pageshow', (event) => {
  if (event.persisted) progress.reset();
});
