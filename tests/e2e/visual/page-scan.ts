/**
 * The in-page half of the visual check (issue 19 §6), run by `page.evaluate` on a page whose
 * viewport holds the whole document (check.ts), so that every box is on screen at scroll 0:
 * lists each element's visible text boxes, and finds the texts that an unrelated interactive
 * element covers with something it paints. Self-contained: Playwright sends the function's
 * source to the page, so it uses nothing from outside it.
 */

export interface ScannedBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ScannedText {
  /** A readable path to the element holding the text (not always a unique selector). */
  selector: string;
  text: string;
  /** The element's computed `color`. */
  colour: string;
  /** Its text's line boxes, clipped to what scrolling containers and the viewport show. */
  boxes: ScannedBox[];
}

export interface ScannedCover {
  selector: string;
  text: string;
  /** The interactive element on top of the text. */
  cover: string;
  x: number;
  y: number;
}

export interface Scan {
  texts: ScannedText[];
  covers: ScannedCover[];
}

export function scanPage(): Scan {
  const INTERACTIVE = 'a[href], button, input, select, textarea, summary, [role="button"]';
  const SKIPPED = 'script, style, noscript, template, textarea, select, option, svg, head';
  const REPLACED = /^(img|video|canvas|iframe|input|select|textarea|object|embed|picture)$/;
  const MIN_AREA = 16;

  function alpha(colour: string): number {
    if (colour === 'transparent') return 0;
    const slash = /\/\s*([\d.]+)(%?)\s*\)$/.exec(colour);
    if (slash) return Number(slash[1]) / (slash[2] === '%' ? 100 : 1);
    const rgba = /^rgba\([^,]+,[^,]+,[^,]+,\s*([\d.]+)\)$/.exec(colour);
    return rgba ? Number(rgba[1]) : 1;
  }

  function describe(element: Element): string {
    const parts: string[] = [];
    let node: Element | null = element;
    while (node && node !== document.body && parts.length < 5) {
      if (node.id) {
        parts.unshift(`${node.localName}#${node.id}`);
        break;
      }
      const classes = [...node.classList].slice(0, 2).map((c) => `.${c}`);
      parts.unshift(node.localName + classes.join(''));
      node = node.parentElement;
    }
    return parts.join(' > ');
  }

  function within(rect: DOMRect | ScannedBox, x: number, y: number): boolean {
    return x >= rect.x && x <= rect.x + rect.width && y >= rect.y && y <= rect.y + rect.height;
  }

  function intersect(a: ScannedBox, b: ScannedBox): ScannedBox | null {
    const x = Math.max(a.x, b.x);
    const y = Math.max(a.y, b.y);
    const right = Math.min(a.x + a.width, b.x + b.width);
    const bottom = Math.min(a.y + a.height, b.y + b.height);
    return right > x && bottom > y ? { x, y, width: right - x, height: bottom - y } : null;
  }

  /** What the element's scrolling or clipping ancestors (and the viewport) let show. */
  function clipOf(element: Element): ScannedBox | null {
    let visible: ScannedBox | null = {
      x: 0,
      y: 0,
      width: document.documentElement.clientWidth,
      height: window.innerHeight,
    };
    for (let node: Element | null = element; node && visible; node = node.parentElement) {
      if (node === document.documentElement || node === document.body) break;
      const style = getComputedStyle(node);
      const inset = clipPathOf(node, style.clipPath);
      if (inset) visible = intersect(visible, inset);
      if (!visible || (style.overflowX === 'visible' && style.overflowY === 'visible')) continue;
      const rect = node.getBoundingClientRect();
      visible = intersect(visible, {
        x: rect.x + node.clientLeft,
        y: rect.y + node.clientTop,
        width: node.clientWidth,
        height: node.clientHeight,
      });
    }
    return visible;
  }

  /**
   * The box an `inset()` clip-path leaves of the element (Tailwind's `sr-only` is
   * `inset(50%)`: nothing, and a table ignores its `overflow: hidden`); other shapes: its box.
   */
  function clipPathOf(node: Element, clipPath: string): ScannedBox | null {
    const rect = node.getBoundingClientRect();
    const inset = /^inset\(([^)]*?)(?:\s+round\b[^)]*)?\)$/.exec(clipPath);
    if (!inset) return null;
    const length = (value: string | undefined, size: number) =>
      value?.endsWith('%')
        ? (Number.parseFloat(value) / 100) * size
        : Number.parseFloat(value ?? '0');
    const values = (inset[1] ?? '').trim().split(/\s+/);
    const [top, right = top, bottom = top, left = right] = values;
    const t = length(top, rect.height);
    const r = length(right, rect.width);
    const b = length(bottom, rect.height);
    const l = length(left, rect.width);
    return {
      x: rect.x + l,
      y: rect.y + t,
      width: Math.max(0, rect.width - l - r),
      height: Math.max(0, rect.height - t - b),
    };
  }

  /** Whether `node` draws something at (x, y): its box's paint, its own text or a pseudo's. */
  function paints(node: Element, x: number, y: number): boolean {
    const style = getComputedStyle(node);
    if (style.visibility !== 'visible' || Number(style.opacity) === 0) return false;
    if ([...node.getClientRects()].some((rect) => within(rect, x, y))) {
      if (node instanceof SVGElement || REPLACED.test(node.localName)) return true;
      if (alpha(style.backgroundColor) > 0.05 || style.backgroundImage !== 'none') return true;
      const range = document.createRange();
      for (const child of node.childNodes) {
        if (child.nodeType !== Node.TEXT_NODE || !child.textContent?.trim()) continue;
        range.selectNodeContents(child);
        if ([...range.getClientRects()].some((rect) => within(rect, x, y))) return true;
      }
      return false;
    }
    // Outside its own boxes, the hit is one of its pseudo-elements (a stretched link's
    // transparent ::after covers a whole card and hides nothing).
    return ['::before', '::after'].some((pseudo) => {
      const box = getComputedStyle(node, pseudo);
      return (
        box.content !== 'none' &&
        box.content !== 'normal' &&
        box.visibility === 'visible' &&
        (alpha(box.backgroundColor) > 0.05 || box.backgroundImage !== 'none')
      );
    });
  }

  /** The interactive element painting over `element`'s text at (x, y), if any. */
  function coverAt(element: Element, x: number, y: number): Element | null {
    const top = document.elementFromPoint(x, y);
    if (!top || element.contains(top) || top.contains(element)) return null;
    const interactive = top.closest(INTERACTIVE);
    if (!interactive || interactive.contains(element) || element.contains(interactive)) {
      return null;
    }
    for (let node: Element | null = top; node; node = node.parentElement) {
      if (paints(node, x, y)) return interactive;
      if (node === interactive) break;
    }
    return null;
  }

  window.scrollTo(0, 0);
  const byElement = new Map<Element, Text[]>();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || !node.textContent?.trim() || parent.closest(SKIPPED)) continue;
    const list = byElement.get(parent) ?? [];
    list.push(node as Text);
    byElement.set(parent, list);
  }

  const texts: ScannedText[] = [];
  const covers: ScannedCover[] = [];
  const range = document.createRange();
  for (const [element, nodes] of byElement) {
    if (
      !element.checkVisibility({
        opacityProperty: true,
        visibilityProperty: true,
        contentVisibilityAuto: true,
      })
    ) {
      continue;
    }
    const style = getComputedStyle(element);
    // Text drawn by its background (background-clip: text) or deliberately transparent.
    if (alpha(style.webkitTextFillColor) === 0 || style.backgroundClip === 'text') continue;
    const clip = clipOf(element);
    if (!clip) continue;
    const boxes: ScannedBox[] = [];
    for (const node of nodes) {
      range.selectNodeContents(node);
      for (const rect of range.getClientRects()) {
        const box = intersect(clip, rect);
        if (box && box.width >= 1 && box.height >= 1) boxes.push(box);
      }
    }
    if (boxes.reduce((sum, box) => sum + box.width * box.height, 0) < MIN_AREA) continue;
    const text = nodes
      .map((node) => node.data)
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 60);
    const selector = describe(element);
    texts.push({ selector, text, colour: style.color, boxes });

    search: for (const box of boxes) {
      const y = box.y + box.height / 2;
      const step = Math.max(4, box.width / 40);
      for (let x = box.x + 1; x < box.x + box.width; x += step) {
        const cover = coverAt(element, x, y);
        if (cover) {
          covers.push({
            selector,
            text,
            cover: describe(cover),
            x: Math.round(x),
            y: Math.round(y),
          });
          break search;
        }
      }
    }
  }
  return { texts, covers };
}
