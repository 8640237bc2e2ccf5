import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  clickStartsNavigation,
  createProgress,
  navigateStartsNavigation,
  PROGRESS_DURATION_MS,
  PROGRESS_HIDE_MS,
  PROGRESS_THROTTLE_MS,
  submitStartsNavigation,
  type ClickFacts,
  type ProgressView,
} from '../../src/browser/shell/progress-state.ts';

/** The settle time is the bar's duration (progress-state.ts). */
const PROGRESS_SETTLE_MS = PROGRESS_DURATION_MS;

// spec §9: progress bar throttle 200 ms, duration 5000 ms, hides after 500 ms; spec §4: a
// navigation failure marks the progress bar as failed.

const HERE = 'https://literie.example/c/matelas?page=2';

describe('createProgress (fake timers)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function setup() {
    const views: ProgressView[] = [];
    const progress = createProgress({ render: (view) => views.push(view) });
    const last = () => views.at(-1);
    return { views, progress, last };
  }

  test('spec §9 constants', () => {
    expect([PROGRESS_THROTTLE_MS, PROGRESS_DURATION_MS, PROGRESS_HIDE_MS]).toEqual([
      200, 5000, 500,
    ]);
  });

  test('a navigation pending past the throttle shows the bar', () => {
    const { progress, last } = setup();
    progress.start();
    expect(progress.phase).toBe('waiting');
    expect(last()).toBe('hidden');
    vi.advanceTimersByTime(PROGRESS_THROTTLE_MS - 1);
    expect(last()).toBe('hidden');
    vi.advanceTimersByTime(1);
    expect(progress.phase).toBe('running');
    expect(last()).toBe('running');
  });

  test('a navigation ending within the throttle never shows it', () => {
    const { progress, views } = setup();
    progress.start();
    vi.advanceTimersByTime(150);
    progress.finish();
    vi.advanceTimersByTime(10_000);
    expect(views).toEqual(['hidden']);
    expect(progress.phase).toBe('idle');
  });

  test('an ended navigation completes the bar, which hides 500 ms later', () => {
    const { progress, last } = setup();
    progress.start();
    vi.advanceTimersByTime(1000);
    progress.finish();
    expect(last()).toBe('done');
    vi.advanceTimersByTime(PROGRESS_HIDE_MS - 1);
    expect(last()).toBe('done');
    vi.advanceTimersByTime(1);
    expect(last()).toBe('hidden');
    expect(progress.phase).toBe('idle');
  });

  test('a navigation that never leaves the page (204, download) completes after the settle time', () => {
    const { progress, views } = setup();
    progress.start();
    vi.advanceTimersByTime(PROGRESS_SETTLE_MS);
    expect(views).toEqual(['hidden', 'running', 'done']);
    vi.advanceTimersByTime(PROGRESS_HIDE_MS);
    expect(views).toEqual(['hidden', 'running', 'done', 'hidden']);
  });

  test('a failure turns the shown bar red, hidden 500 ms later', () => {
    const { progress, views } = setup();
    progress.start();
    vi.advanceTimersByTime(300);
    progress.fail();
    expect(progress.phase).toBe('failed');
    vi.advanceTimersByTime(PROGRESS_HIDE_MS);
    expect(views).toEqual(['hidden', 'running', 'failed', 'hidden']);
    // Nothing left running: the settle timer was cleared.
    vi.advanceTimersByTime(10_000);
    expect(views).toHaveLength(4);
  });

  test('a failure before the bar showed leaves it hidden', () => {
    const { progress, views } = setup();
    progress.start();
    vi.advanceTimersByTime(100);
    progress.fail();
    vi.advanceTimersByTime(10_000);
    expect(views).toEqual(['hidden']);
  });

  test('a failure reported for a navigation a newer one replaced is ignored', () => {
    const { progress, views } = setup();
    progress.start();
    vi.advanceTimersByTime(300);
    const first = progress.navigation;
    progress.start(); // navigateerror of the first, then navigate of the second
    progress.fail(first);
    expect(progress.phase).toBe('running');
    progress.fail(progress.navigation);
    expect(views).toEqual(['hidden', 'running', 'failed']);
  });

  test('a second navigation while running keeps the bar and restarts its settle time', () => {
    const { progress, views } = setup();
    progress.start();
    vi.advanceTimersByTime(3000);
    progress.start();
    vi.advanceTimersByTime(PROGRESS_SETTLE_MS - 1);
    expect(views).toEqual(['hidden', 'running']);
    vi.advanceTimersByTime(1);
    expect(views).toEqual(['hidden', 'running', 'done']);
  });

  test('freeze (pagehide) stops every timer; reset (back/forward cache) hides at once', () => {
    const { progress, views } = setup();
    progress.start();
    vi.advanceTimersByTime(300);
    progress.freeze();
    vi.advanceTimersByTime(60_000);
    expect(views).toEqual(['hidden', 'running']);
    progress.reset();
    expect(progress.phase).toBe('idle');
    expect(views.at(-1)).toBe('hidden');
    progress.start();
    vi.advanceTimersByTime(PROGRESS_THROTTLE_MS);
    expect(views.at(-1)).toBe('running');
  });

  test('a navigation starting while the bar is done or failed restarts it from hidden', () => {
    const { progress, views } = setup();
    progress.start();
    vi.advanceTimersByTime(300);
    progress.finish();
    progress.start();
    expect(views.at(-1)).toBe('hidden');
    vi.advanceTimersByTime(PROGRESS_HIDE_MS); // the old hide timer no longer fires
    expect(views.at(-1)).toBe('running');
  });

  test('property: any sequence of events shows the bar only after the throttle, never stays done', () => {
    const event = fc.constantFrom('start', 'finish', 'fail', 'freeze', 'reset', 'wait');
    fc.assert(
      fc.property(
        fc.array(fc.tuple(event, fc.integer({ min: 0, max: 6000 })), { maxLength: 30 }),
        (steps) => {
          vi.clearAllTimers();
          const { progress, views } = setup();
          let startedAt: number | null = null;
          let frozen = false;
          for (const [name, ms] of steps) {
            if (name === 'start') {
              if (progress.phase !== 'running') startedAt = Date.now();
              progress.start();
              frozen = false;
            } else if (name === 'wait') {
              const before = views.length;
              vi.advanceTimersByTime(ms);
              if (views.length > before && views.at(-1) === 'running') {
                expect(Date.now() - (startedAt ?? 0)).toBeGreaterThanOrEqual(PROGRESS_THROTTLE_MS);
              }
            } else if (name === 'freeze') {
              progress.freeze();
              frozen = true;
            } else {
              progress[name]();
            }
          }
          // Left alone long enough, an unfrozen bar always ends hidden.
          vi.advanceTimersByTime(PROGRESS_SETTLE_MS + PROGRESS_HIDE_MS + PROGRESS_THROTTLE_MS);
          if (!frozen) {
            expect(progress.phase).toBe('idle');
            if (views.length > 0) expect(views.at(-1)).toBe('hidden');
          }
        },
      ),
    );
  });
});

describe('what starts a page load', () => {
  const plain: ClickFacts = {
    button: 0,
    metaKey: false,
    ctrlKey: false,
    shiftKey: false,
    altKey: false,
    defaultPrevented: false,
  };
  const link = (href: string, more: { target?: string; download?: boolean } = {}) => ({
    href,
    target: more.target ?? '',
    download: more.download ?? false,
  });

  test.each([
    ['/p/101/matelas-elysee', true],
    ['https://literie.example/marque/atelier', true],
    ['?page=3', true],
    ['/c/matelas?page=2', true], // the same page: the browser loads it again
    ['#avis', false],
    ['/c/matelas?page=2#avis', false],
    ['/p/101/x#avis', true],
    ['https://autre.example/', false],
    ['mailto:contact@literie.example', false],
    ['tel:+33100000000', false],
    ['javascript:void(0)', false],
  ])('a plain click on %s → %s', (href, expected) => {
    expect(clickStartsNavigation(plain, link(href), HERE)).toBe(expected);
  });

  test.each([
    [{ button: 1 }],
    [{ metaKey: true }],
    [{ ctrlKey: true }],
    [{ shiftKey: true }],
    [{ altKey: true }],
    [{ defaultPrevented: true }],
  ])('no page load for a click with %j', (change) => {
    expect(clickStartsNavigation({ ...plain, ...change }, link('/panier'), HERE)).toBe(false);
  });

  test('links opening elsewhere or downloading load nothing here', () => {
    expect(clickStartsNavigation(plain, link('/cgv', { target: '_blank' }), HERE)).toBe(false);
    expect(clickStartsNavigation(plain, link('/cgv', { target: 'autre' }), HERE)).toBe(false);
    expect(clickStartsNavigation(plain, link('/cgv', { target: '_self' }), HERE)).toBe(true);
    expect(clickStartsNavigation(plain, link('/cgv.pdf', { download: true }), HERE)).toBe(false);
  });

  const form = { defaultPrevented: false, method: 'get', action: '', target: '' };
  test.each([
    [{ action: 'https://literie.example/resultats-de-recherche' }, true],
    [{ action: 'https://literie.example/c/matelas#liste' }, true], // a GET replaces the query
    [{ action: '' }, true],
    [{ method: 'post', action: 'https://literie.example/deconnexion' }, true],
    [{ method: 'dialog' }, false],
    [{ defaultPrevented: true, action: '/resultats-de-recherche' }, false],
    [{ target: '_blank', action: '/resultats-de-recherche' }, false],
    [{ method: 'post', action: 'https://checkout.example/cart.php' }, false],
  ])('a form submission %j → %s', (change, expected) => {
    expect(submitStartsNavigation({ ...form, ...change }, HERE)).toBe(expected);
  });

  const navigate = (
    url: string,
    more: Partial<{ hashChange: boolean; sameDocument: boolean }> = {},
  ) => ({
    hashChange: more.hashChange ?? false,
    downloadRequest: null,
    destination: { url, sameDocument: more.sameDocument ?? false },
  });
  test('navigate events: loads of shop pages only', () => {
    expect(navigateStartsNavigation(navigate('https://literie.example/panier'), HERE)).toBe(true);
    expect(navigateStartsNavigation(navigate(HERE), HERE)).toBe(true); // reload
    expect(
      navigateStartsNavigation(
        navigate(`${HERE}#avis`, { hashChange: true, sameDocument: true }),
        HERE,
      ),
    ).toBe(false);
    expect(
      navigateStartsNavigation(navigate('https://literie.example/x', { sameDocument: true }), HERE),
    ).toBe(false);
    expect(
      navigateStartsNavigation(
        { ...navigate('https://literie.example/f.pdf'), downloadRequest: 'f.pdf' },
        HERE,
      ),
    ).toBe(false);
    expect(navigateStartsNavigation(navigate('https://checkout.example/'), HERE)).toBe(false);
  });

  test('property: a fragment of the current page never starts the bar', () => {
    fc.assert(
      fc.property(
        fc.webFragments().filter((f) => f !== ''),
        (fragment) => {
          expect(clickStartsNavigation(plain, link(`#${fragment}`), HERE)).toBe(false);
        },
      ),
    );
  });
});

test('the bar CSS follows spec §9 (grows over 5000 ms) and is decoration only', () => {
  const css = readFileSync(new URL('../../src/styles/global.css', import.meta.url), 'utf8');
  const running = /\.nav-progress\[data-state='running'\] \{([^}]*)\}/.exec(css)?.[1] ?? '';
  expect(running).toContain(`transform ${PROGRESS_DURATION_MS}ms`);
  expect(running).toContain('scaleX(0.9)');
  const base = /\.nav-progress \{([^}]*)\}/.exec(css)?.[1] ?? '';
  expect(base).toContain('position: fixed');
  expect(base).toContain('pointer-events: none');
  const script = readFileSync(
    new URL('../../src/browser/shell/progress-bar.ts', import.meta.url),
    'utf8',
  );
  expect(script).toContain("setAttribute('aria-hidden', 'true')");
});
