/**
 * A content editor's journey: a content page's title and body changed and published in the
 * sandbox's Contentful (its management API, as an editor's app would), the signed webhook the
 * sandbox sends, and the page in the browser showing the new text, looked at 390 and 1280 px
 * (screenshots in test-results/visual/, measured like visual.spec.ts).
 *
 * The suite's own server (`scripts/start.ts --no-build`, playwright.config.ts) has no webhook
 * secret: it never rebuilds. So this spec starts a second copy of the shop the way an operator
 * runs it with rebuilds on: the same test build (`DIST_DIR`) and sandbox, its own port, releases
 * folder and state, a Contentful webhook secret, and the sandbox's webhook registered to it.
 * Started on an existing build, it runs its warm-up full build to have a kept build; the editor
 * publishes once that is done (an edit made during it could be read by the warm-up itself, and
 * the edit's own run would then have nothing to do). The edit is published through the kept
 * build, or built in full if the kept build asks for one: the spec waits for the page whichever
 * it is (the status says which), with a generous bound, and checks that the run that made it
 * started after the edit. The test build the copy starts on has the old text.
 *
 * The page is `/devenir-affilie`, which no other browser test reads; the entry's title and body
 * are put back as they were after (the webhook removed first, so that no rebuild follows).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { publishEntryField } from '@literie/sandbox/editor';
import { TEST_ENV } from '../../scripts/lib/test-env.ts';
import { registerSandboxWebhooks, SANDBOX_CONTENTFUL } from '../../scripts/lib/upstream.ts';
import { freePort } from '../../src/server/free-port.ts';
import { expect, test, waitForHydration } from './helpers.ts';
import { checkPage, formatFindings, VISUAL_DIR } from './visual/check.ts';

const SANDBOX = `http://127.0.0.1:${TEST_ENV.SANDBOX_PORT}`;
const ENTRY = 'page-devenir-affilie';
const PAGE = '/devenir-affilie';
const SLEEP_ENTRY = 'sleep-la-bibliotheque-sous-la-lune';
const SLEEP_PAGE = '/les-yeux-fermes/la-bibliotheque-sous-la-lune';
const SLEEP_TEXT =
  'Ce soir, la bibliothécaire a laissé une lampe allumée au fond de la salle de lecture.';
const OLD_TITLE = 'Devenir affilié';
const NEW_TITLE = 'Rejoindre le programme d’affiliation';
const NEW_TEXT =
  'Nouveau : les créateurs de contenus sur le sommeil reçoivent un matelas d’essai pour le tester pendant cent nuits avant d’en parler.';
// A content edit may be a full build (about a minute on the test build, more on a busy
// machine), after the warm-up build the copy runs at start.
const LIVE_WITHIN_MS = 420_000;

const MANAGEMENT = `${SANDBOX}/contentful-management/spaces/${SANDBOX_CONTENTFUL.spaceId}`;
const AUTH = { authorization: `Bearer ${SANDBOX_CONTENTFUL.managementToken}` };

interface RichDocument {
  nodeType: 'document';
  data: object;
  content: unknown[];
}

interface EntryFields {
  title: { fr: string };
  body: { fr: RichDocument };
}

let shop: { child: ChildProcess; base: string; output: () => string } | null = null;
let root = '';
/** The fields as they were, put back after: by entry id. */
const originals = new Map<string, EntryFields>();

async function readStatus(base: string): Promise<Status> {
  return (await (await fetch(`${base}/webhooks/status`)).json()) as Status;
}

/** Entry `id`'s fields, kept to be put back after. */
async function readEntry(id: string): Promise<EntryFields> {
  const response = await fetch(
    `${MANAGEMENT}/environments/${SANDBOX_CONTENTFUL.environment}/entries/${id}`,
    { headers: AUTH },
  );
  expect(response.status).toBe(200);
  const { fields } = (await response.json()) as { fields: EntryFields };
  originals.set(id, fields);
  return fields;
}

/** `body` with a paragraph of `text` first. */
function withParagraph(body: RichDocument, text: string): RichDocument {
  const paragraph = {
    nodeType: 'paragraph',
    data: {},
    content: [{ nodeType: 'text', value: text, marks: [], data: {} }],
  };
  return { ...body, content: [paragraph, ...body.content] };
}

/** The sandbox's Contentful webhook definitions that send to `base`, removed. */
async function removeWebhooks(base: string): Promise<void> {
  const listed = await fetch(`${MANAGEMENT}/webhook_definitions`, { headers: AUTH });
  const { items } = (await listed.json()) as { items: { url: string; sys: { id: string } }[] };
  for (const item of items.filter((one) => one.url.startsWith(base))) {
    await fetch(`${MANAGEMENT}/webhook_definitions/${item.sys.id}`, {
      method: 'DELETE',
      headers: AUTH,
    });
  }
}

/** `scripts/start.ts --no-build` with rebuilds on; resolves once it serves. */
async function startShop(): Promise<NonNullable<typeof shop>> {
  root = await mkdtemp(path.join(os.tmpdir(), 'content-editor-'));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...TEST_ENV,
    PORT: String(port),
    RELEASES_DIR: path.join(root, 'releases'),
    STATE_DIR: path.join(root, 'state'),
    CONTENTFUL_WEBHOOK_SECRET: randomBytes(32).toString('hex'),
    SERVER_WORKERS: '1',
    LOG_LEVEL: 'info',
  };
  delete env.BIGCOMMERCE_WEBHOOK_SECRET;
  delete env.REDIS_URL;
  const child = spawn(process.execPath, ['scripts/start.ts', '--no-build'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const started = new Promise<void>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('[start] the shop runs at')) resolve();
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => {
      reject(new Error(`the shop exited (${String(code)}):\n${output}`));
    });
  });
  await started;
  const base = `http://127.0.0.1:${String(port)}`;
  const problems = await registerSandboxWebhooks({
    sandboxUrl: SANDBOX,
    shopUrl: base,
    contentfulSecret: env.CONTENTFUL_WEBHOOK_SECRET,
    bigcommerceSecret: undefined,
  });
  expect(problems).toEqual([]);
  return { child, base, output: () => output };
}

/** What the status says of a run under way (`running`, src/server/rebuild/activity.ts). */
interface Running {
  kind: string;
  since: string;
  expectedEnd: string | null;
  reason: { cause: string; ids: string[]; fullBecause: string | null };
}

interface Status {
  state: string;
  running: Running | null;
  current: { id: string; generation: number };
  lastBuild: {
    kind?: string;
    startedAt: string;
    result: string;
    durationMs?: number;
    pages?: { written: number; removed: number };
    reason?: { ids: string[]; fullBecause: string | null };
  } | null;
  lastEvent: { source: string; id: string } | null;
}

// The warm-up, then two edits, each within LIVE_WITHIN_MS.
test.describe.configure({ timeout: 3 * LIVE_WITHIN_MS + 120_000 });

/**
 * The run that made an edit live: started after `editedAt`, for the entry's webhook, named in
 * the status; a publish rendered pages again. Logs what it was.
 */
async function expectRunAfter(base: string, editedAt: number, step: string): Promise<void> {
  const status = await readStatus(base);
  expect(status.lastEvent).toMatchObject({ source: 'contentful' });
  expect(status.lastBuild?.result).toBe('succeeded');
  expect(Date.parse(status.lastBuild?.startedAt ?? '')).toBeGreaterThanOrEqual(editedAt);
  expect(status.lastBuild?.reason?.ids).toContain(`contentful:${ENTRY}`);
  if (status.lastBuild?.kind === 'publish') {
    expect(status.lastBuild.pages?.written).toBeGreaterThan(0);
  }
  const build = status.lastBuild;
  console.log(
    `${step}: live through a ${build?.kind ?? 'build'} in ${String(build?.durationMs ?? '?')} ms (pages ${JSON.stringify(build?.pages ?? 'all')}${build?.reason?.fullBecause ? `; full: ${build.reason.fullBecause}` : ''}); release ${status.current.id}, publishes ${String(status.current.generation)}`,
  );
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  shop = await startShop();
});

test.afterAll(async () => {
  test.setTimeout(60_000);
  const running = shop;
  shop = null;
  if (running) await removeWebhooks(running.base);
  for (const [id, fields] of originals) {
    await publishEntryField(SANDBOX, id, 'title', fields.title.fr);
    await publishEntryField(SANDBOX, id, 'body', fields.body.fr);
  }
  if (running?.child.exitCode === null) {
    const exited = new Promise((resolve) => running.child.once('exit', resolve));
    running.child.kill('SIGTERM');
    await exited;
  }
  if (root) await rm(root, { recursive: true, force: true });
});

test('content edited in Contentful: a page’s body and title, a sleep entry, live in the browser', async ({
  page,
}) => {
  const base = shop?.base ?? '';
  const title = page.getByRole('heading', { level: 1 });
  const added = page.getByText(NEW_TEXT);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${base}${PAGE}`);
  await expect(title).toHaveText(OLD_TITLE);
  await expect(added).toHaveCount(0);
  // The copy is ready for edits once its warm-up build is live.
  await expect
    .poll(
      async () => {
        const now = await readStatus(base);
        return `${now.state} ${now.lastBuild?.kind ?? ''} ${now.lastBuild?.result ?? ''}`;
      },
      { timeout: LIVE_WITHIN_MS, intervals: [1_000] },
    )
    .toBe('idle build succeeded');

  // 1. A paragraph added at the top of the page's body, and of a sleep entry's: the page,
  // reloaded as an editor would, until it shows it.
  const pageFields = await readEntry(ENTRY);
  const sleepFields = await readEntry(SLEEP_ENTRY);
  let editedAt = Date.now();
  await publishEntryField(SANDBOX, ENTRY, 'body', withParagraph(pageFields.body.fr, NEW_TEXT));
  await publishEntryField(
    SANDBOX,
    SLEEP_ENTRY,
    'body',
    withParagraph(sleepFields.body.fr, SLEEP_TEXT),
  );
  await expect(async () => {
    await page.reload();
    await expect(added).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: LIVE_WITHIN_MS, intervals: [2_000] });
  await expect(title).toHaveText(OLD_TITLE);
  await page.goto(`${base}${SLEEP_PAGE}`);
  await expect(page.getByText(SLEEP_TEXT)).toBeVisible();
  await expectRunAfter(base, editedAt, 'body');

  // 2. The page's title: its heading, its document title, and its link in every page's footer.
  // Meanwhile the status says what runs, as the editor would read it.
  await page.goto(`${base}${PAGE}`);
  editedAt = Date.now();
  await publishEntryField(SANDBOX, ENTRY, 'title', NEW_TITLE);
  const seen: Running[] = [];
  await expect(async () => {
    const { running } = await readStatus(base);
    if (running && Date.parse(running.since) >= editedAt) seen.push(running);
    await page.reload();
    await expect(title).toHaveText(NEW_TITLE, { timeout: 1_000 });
  }).toPass({ timeout: LIVE_WITHIN_MS, intervals: [2_000] });
  // A run seen under way names the edit; a full build's end is expected from the warm-up's
  // duration (a publish may be over before the status is read).
  for (const running of seen) {
    expect(running.reason.ids).toContain(`contentful:${ENTRY}`);
    if (running.kind === 'build') {
      expect(running.expectedEnd).not.toBeNull();
      expect(Date.parse(running.expectedEnd ?? '')).toBeGreaterThan(Date.parse(running.since));
    }
  }
  if (seen[0]) console.log(`title: the status said ${JSON.stringify(seen[0])}`);
  await expect(page).toHaveTitle(new RegExp(NEW_TITLE));
  await expect(added).toBeVisible();
  await expectRunAfter(base, editedAt, 'title');
  await page.goto(`${base}/aide`);
  await expect(page.locator(`footer a[href="${PAGE}"]`)).toHaveText(NEW_TITLE);

  // The edited page at a phone's and a desktop's width: readable, nothing covered or cut.
  console.log(`Content editor screenshots: ${VISUAL_DIR}`);
  const report: string[] = [];
  for (const width of [390, 1280] as const) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${base}${PAGE}`);
    await waitForHydration(page);
    await expect(added).toBeVisible();
    const findings = await checkPage(page, 'content-edited', width);
    if (findings.length > 0) report.push(formatFindings('content-edited', width, findings));
  }
  expect(report.join('\n'), `see the screenshots in ${VISUAL_DIR}`).toBe('');
});
