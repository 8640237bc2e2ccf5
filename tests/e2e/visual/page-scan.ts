/**
 * The in-page half of the visual check, run by `page.evaluate` on a page whose
 * viewport holds the whole document (check.ts), so that every box is on screen at scroll 0:
 * lists each element's visible text boxes, finds the texts that an unrelated interactive
 * element covers with something it paints, and those cut off by a box too small for them. Self-contained: Playwright sends the function's
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

export interface ScannedCut {
  selector: string;
  text: string;
  /** The element whose box cuts the text, or null for the page's width. */
  by: string | null;
  /** Whether `by` clips the text (else the text sticks out of its painted box). */
  clips: boolean;
  /** Share of the text's boxes that is cut off or out of its box, 0 to 1. */
  hidden: number;
}

export interface Scan {
  texts: ScannedText[];
  covers: ScannedCover[];
  cuts: ScannedCut[];
}

interface Layer {
  box: ScannedBox;
  by: Element | null;
  meant: boolean;
  /** False for a painted box: the text goes on past it, on another colour. */
  clips: boolean;
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

  /**
   * What may cut the element's text, innermost first: each clipping ancestor (overflow, an
   * inset clip-path), the nearest painted box (a text sticking out of its button's colour is
   * cut to the eye, if not to the browser), then the viewport's width. `meant` when the cut
   * is on purpose: a scroller, an ellipsis or line clamp, a visually-hidden text.
   */
  function layersOf(element: Element): Layer[] {
    const layers: Layer[] = [];
    let ellipsis = false;
    let painted = false;
    for (let node: Element | null = element; node; node = node.parentElement) {
      if (node === document.documentElement || node === document.body) break;
      const style = getComputedStyle(node);
      ellipsis ||= style.textOverflow === 'ellipsis' || style.webkitLineClamp !== 'none';
      const inset = clipPathOf(node, style.clipPath);
      if (inset) layers.push({ box: inset, by: node, meant: true, clips: true });
      const rect = node.getBoundingClientRect();
      if (style.overflowX !== 'visible' || style.overflowY !== 'visible') {
        layers.push({
          box: {
            x: rect.x + node.clientLeft,
            y: rect.y + node.clientTop,
            width: node.clientWidth,
            height: node.clientHeight,
          },
          by: node,
          meant: ellipsis || /auto|scroll/.test(`${style.overflowX} ${style.overflowY}`),
          clips: true,
        });
      }
      if (!painted && (alpha(style.backgroundColor) >= 0.5 || style.backgroundImage !== 'none')) {
        painted = true;
        layers.push({ box: rect, by: node, meant: ellipsis, clips: false });
      }
    }
    const page = document.documentElement;
    layers.push({
      box: { x: 0, y: 0, width: page.clientWidth, height: window.innerHeight },
      by: null,
      meant: false,
      clips: true,
    });
    return layers;
  }

  /** Whether `layer` cuts `rect` by more than a pixel (the viewport: only across). */
  function cutsInto(layer: Layer, rect: ScannedBox): boolean {
    const { box } = layer;
    const across = rect.x < box.x - 1 || rect.x + rect.width > box.x + box.width + 1;
    const down = rect.y < box.y - 1 || rect.y + rect.height > box.y + box.height + 1;
    return across || (layer.by !== null && down);
  }

  function area(box: ScannedBox | null): number {
    return box ? box.width * box.height : 0;
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

  // Every visible control, with how far it may paint: its box, its descendants' and, for a
  // painted absolutely-placed pseudo-element, the box that pseudo-element is placed in.
  const controls: { element: Element; reach: ScannedBox }[] = [];
  for (const control of document.querySelectorAll(INTERACTIVE)) {
    if (!control.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
    const parts: ScannedBox[] = [control, ...control.querySelectorAll('*')].map((part) =>
      part.getBoundingClientRect(),
    );
    for (const pseudo of ['::before', '::after']) {
      const box = getComputedStyle(control, pseudo);
      const placed = box.position === 'absolute' || box.position === 'fixed';
      const paintsBox = alpha(box.backgroundColor) > 0.05 || box.backgroundImage !== 'none';
      if (box.content !== 'none' && placed && paintsBox) {
        const holder = box.position === 'fixed' ? null : (control as HTMLElement).offsetParent;
        parts.push(
          holder
            ? holder.getBoundingClientRect()
            : { x: 0, y: 0, width: window.innerWidth, height: window.innerHeight },
        );
      }
    }
    const x = Math.min(...parts.map((part) => part.x));
    const y = Math.min(...parts.map((part) => part.y));
    const right = Math.max(...parts.map((part) => part.x + part.width));
    const bottom = Math.max(...parts.map((part) => part.y + part.height));
    controls.push({ element: control, reach: { x, y, width: right - x, height: bottom - y } });
  }

  const texts: ScannedText[] = [];
  const covers: ScannedCover[] = [];
  const cuts: ScannedCut[] = [];
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
    const layers = layersOf(element);
    const boxes: ScannedBox[] = [];
    let full = 0;
    let cutBy: Layer | null = null;
    let cutOff = 0;
    for (const node of nodes) {
      // The glyphs only: white space hanging at a line's end may stick out of any box.
      range.setStart(node, node.data.search(/\S/));
      range.setEnd(node, node.data.trimEnd().length);
      for (const rect of range.getClientRects()) {
        if (rect.width < 1 || rect.height < 1) continue;
        full += area(rect);
        let box: ScannedBox | null = rect;
        let scrolls = false;
        let counted = false;
        for (const layer of layers) {
          if (cutsInto(layer, rect)) {
            // Past a scroller (or an ellipsis), what sticks out is there to scroll to.
            scrolls ||= layer.meant;
            if (!scrolls && !counted) {
              counted = true;
              cutBy ??= layer;
              cutOff += area(rect) - area(intersect(rect, layer.box));
            }
          }
          if (layer.clips) box = box && intersect(box, layer.box);
        }
        if (box && box.width >= 1 && box.height >= 1) boxes.push(box);
      }
    }
    const shown = boxes.reduce((sum, box) => sum + area(box), 0);
    if (shown < MIN_AREA) continue;
    const text = nodes
      .map((node) => node.data)
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 60);
    const selector = describe(element);
    texts.push({ selector, text, colour: style.color, boxes });
    if (cutBy && cutOff > Math.max(MIN_AREA, full * 0.02)) {
      cuts.push({
        selector,
        text,
        by: cutBy.by ? describe(cutBy.by) : null,
        clips: cutBy.clips,
        hidden: Math.round((cutOff / full) * 100) / 100,
      });
    }

    // Points are probed only where a control's reach meets the text: a few hundred hit
    // tests a page rather than one every few pixels of every text.
    search: for (const control of controls) {
      if (control.element.contains(element) || element.contains(control.element)) continue;
      for (const box of boxes) {
        const meet = intersect(box, control.reach);
        if (!meet) continue;
        for (const fy of [0.5, 0.25, 0.75]) {
          for (const fx of [0.5, 0.1, 0.3, 0.7, 0.9]) {
            const x = meet.x + meet.width * fx;
            const y = meet.y + meet.height * fy;
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
    }
  }
  return { texts, covers, cuts };
}
