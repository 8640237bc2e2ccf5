/**
 * The visual check of one page at one width: the page is laid out in a viewport
 * as tall as the document (every lazy image and `client:visible` island loads, every box is on
 * screen at scroll 0), then shot twice, as shown and with every glyph transparent; a text whose
 * glyphs do not stand out from what is behind them, that an interactive element paints over or
 * that a box too small cuts off (no ellipsis, no scroller) is a finding. The shown screenshot stays in `VISUAL_DIR` for a person to look at.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type Page } from '@playwright/test';
import sharp from 'sharp';
import { formatRgb, measureText, unreadable, type RawImage } from './pixels.ts';
import { scanPage, type Scan } from './page-scan.ts';
import { expect, waitForNetworkQuiet } from '../helpers.ts';

/** Where the screenshots go (`test-results/` is git-ignored and emptied by each run). */
export const VISUAL_DIR = path.resolve('test-results', 'visual');

/** Chromium draws no taller viewport than this; a longer page is checked down to it. */
const MAX_HEIGHT = 16_000;

// Every glyph transparent, nothing else changed: same layout, same boxes, same background.
const HIDE_TEXT = `*, *::before, *::after, *::marker {
  -webkit-text-fill-color: transparent !important;
  -webkit-text-stroke-color: transparent !important;
  text-decoration-color: transparent !important;
  text-emphasis-color: transparent !important;
  caret-color: transparent !important;
  transition: none !important;
}`;

export interface Finding {
  kind: 'unreadable' | 'covered' | 'cut';
  selector: string;
  text: string;
  detail: string;
}

/**
 * Adds or removes HIDE_TEXT as a constructed style sheet: the shop's CSP forbids inline
 * `<style>` (and page.addStyleTag), not the CSSOM.
 */
export async function setTextHidden(page: Page, hidden: boolean): Promise<void> {
  await page.evaluate(
    ([css, on]) => {
      const holder = window as unknown as { visualHideText?: CSSStyleSheet };
      holder.visualHideText ??= new CSSStyleSheet();
      const sheet = holder.visualHideText;
      sheet.replaceSync(css);
      const others = document.adoptedStyleSheets.filter((s) => s !== sheet);
      document.adoptedStyleSheets = on ? [...others, sheet] : others;
    },
    [HIDE_TEXT, hidden] as const,
  );
}

/** Every element's box, as one string: equal before and after means nothing moved. */
function layoutSignature(): string {
  return [...document.body.querySelectorAll('*')]
    .map((element) => {
      const { x, y, width, height } = element.getBoundingClientRect();
      return `${Math.round(x)},${Math.round(y)},${Math.round(width)},${Math.round(height)}`;
    })
    .join(';');
}

async function decode(png: Buffer): Promise<RawImage> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

/** Waits until the page's images, fonts and islands are done and its height holds still. */
async function settle(page: Page, width: number): Promise<void> {
  let height = page.viewportSize()?.height ?? 0;
  for (let round = 0; round < 4; round += 1) {
    const next = Math.min(
      MAX_HEIGHT,
      await page.evaluate(() => document.documentElement.scrollHeight),
    );
    if (next === height && round > 0) return;
    height = next;
    await page.setViewportSize({ width, height });
    // What the larger viewport started: islands, their requests (the reviews), lazy images.
    await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
    await waitForNetworkQuiet(page);
    // Lazy images load once on screen; one never shown (a closed dialog's) never does.
    await page.waitForFunction(() =>
      [...document.images].every((image) => image.complete || !image.checkVisibility()),
    );
    await page.evaluate(async () => {
      await document.fonts.ready;
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    });
  }
}

/**
 * Checks the page as it is now (already loaded at `width`), saves its screenshot as
 * `VISUAL_DIR/<name>-<width>.png` and returns what cannot be read or is covered.
 */
export async function checkPage(page: Page, name: string, width: number): Promise<Finding[]> {
  // The scan and both screenshots must see one layout: measured again until nothing moved
  // in between (a late reply replacing a "loading" line moves what follows).
  let shot: { scan: Scan; shownPng: Buffer; hiddenPng: Buffer } | null = null;
  for (let attempt = 0; attempt < 3 && !shot; attempt += 1) {
    await settle(page, width);
    const before = await page.evaluate(layoutSignature);
    const scan = await page.evaluate(scanPage);
    const shownPng = await page.screenshot({ animations: 'disabled' });
    await setTextHidden(page, true);
    const hiddenPng = await page.screenshot({ animations: 'disabled' });
    await setTextHidden(page, false);
    if ((await page.evaluate(layoutSignature)) === before) shot = { scan, shownPng, hiddenPng };
  }
  if (!shot) throw new Error(`${name} @ ${width} px: the layout kept moving`);
  const { scan, shownPng, hiddenPng } = shot;
  await mkdir(VISUAL_DIR, { recursive: true });
  await writeFile(path.join(VISUAL_DIR, `${name}-${width}.png`), shownPng);

  const [shown, hidden] = await Promise.all([decode(shownPng), decode(hiddenPng)]);
  const findings: Finding[] = [];
  for (const text of scan.texts) {
    const pixels = measureText(shown, hidden, text.boxes);
    const why = unreadable(pixels);
    if (why) {
      findings.push({
        kind: 'unreadable',
        selector: text.selector,
        text: text.text,
        detail: `${why}: colour ${text.colour}, glyphs ${pixels.text ? formatRgb(pixels.text) : 'none'} on ${formatRgb(pixels.background)}`,
      });
    }
  }
  for (const cover of scan.covers) {
    findings.push({
      kind: 'covered',
      selector: cover.selector,
      text: cover.text,
      detail: `covered by ${cover.cover} at (${cover.x}, ${cover.y})`,
    });
  }
  for (const cut of scan.cuts) {
    findings.push({
      kind: 'cut',
      selector: cut.selector,
      text: cut.text,
      detail: cut.clips
        ? `${Math.round(cut.hidden * 100)} % cut off by ${cut.by ?? "the page's width"}`
        : `${Math.round(cut.hidden * 100)} % out of ${cut.by === cut.selector ? 'its own box' : `its box ${cut.by ?? ''}`}`,
    });
  }
  return findings;
}

/** One line per finding (the same finding on many cards once, with its count). */
export function formatFindings(name: string, width: number, findings: readonly Finding[]): string {
  const lines = new Map<string, number>();
  for (const f of findings) {
    const line = `${name} @ ${width} px: ${f.kind} "${f.text}" (${f.selector}): ${f.detail}`;
    lines.set(line, (lines.get(line) ?? 0) + 1);
  }
  return [...lines].map(([line, count]) => (count > 1 ? `${line} (×${count})` : line)).join('\n');
}
