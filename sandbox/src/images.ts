/**
 * Product pictures of the sandbox, drawn as SVG and rendered to JPEG with sharp, once per data
 * dir (and once per machine, in a shared cache): no network, no copied pictures.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import type { SceneKey } from './seed/catalogue.ts';
import { IMAGE_SIZES, imagePool, type ImageSize, type PoolImage } from './seed/image-pool.ts';

/** Bump when a drawing changes: cached pictures are then redrawn. */
export const IMAGES_VERSION = 3;

function channel(hex: string, index: number): number {
  return parseInt(hex.slice(1 + index * 2, 3 + index * 2), 16);
}

/** Mixes a colour towards white (amount > 0) or black (amount < 0). */
export function shade(hex: string, amount: number): string {
  const target = amount > 0 ? 255 : 0;
  const a = Math.abs(amount);
  const parts = [0, 1, 2].map((i) => Math.round(channel(hex, i) + (target - channel(hex, i)) * a));
  return `#${parts.map((p) => p.toString(16).padStart(2, '0')).join('')}`;
}

function luminance(hex: string): number {
  return (0.2126 * channel(hex, 0) + 0.7152 * channel(hex, 1) + 0.0722 * channel(hex, 2)) / 255;
}

const WOOD = '#B48A5E';
const WHITE = '#F8F6F1';
const LINE = 'stroke-linecap="round" stroke-linejoin="round"';

/** A box in perspective: front face, top face and right side. */
function box(
  x: number,
  y: number,
  w: number,
  h: number,
  depth: number,
  colour: string,
  radius = 6,
): string {
  const dx = depth;
  const dy = depth * 0.7;
  return [
    `<path d="M${x},${y} L${x + dx},${y - dy} L${x + w + dx},${y - dy} L${x + w},${y} Z" fill="${shade(colour, 0.06)}"/>`,
    `<path d="M${x + w},${y} L${x + w + dx},${y - dy} L${x + w + dx},${y + h - dy} L${x + w},${y + h} Z" fill="${shade(colour, -0.18)}"/>`,
    `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${radius}" fill="${shade(colour, -0.06)}"/>`,
  ].join('');
}

function shadow(cx: number, cy: number, rx: number): string {
  return `<ellipse cx="${cx}" cy="${cy}" rx="${rx}" ry="${rx * 0.09}" fill="#000" opacity="0.12"/>`;
}

function mattress(
  x: number,
  y: number,
  w: number,
  h: number,
  colour: string,
  quilted = true,
): string {
  const piping = shade(colour, -0.25);
  const dots: string[] = [];
  if (quilted) {
    for (let i = 1; i < 7; i++) {
      for (let j = 1; j < 3; j++) {
        const px = x + (w * i) / 7 + (40 * j) / 3;
        const py = y - (28 * j) / 3;
        dots.push(`<circle cx="${px}" cy="${py}" r="1.6" fill="${piping}" opacity="0.6"/>`);
      }
    }
  }
  return [
    box(x, y, w, h, 40, colour),
    ...dots,
    `<path d="M${x + 3},${y + 5} H${x + w - 3} M${x + 3},${y + h - 5} H${x + w - 3}" stroke="${piping}" stroke-width="1.5" ${LINE}/>`,
    `<rect x="${x + w / 2 - 14}" y="${y + h / 2 - 5}" width="28" height="10" rx="2" fill="${shade(colour, -0.35)}" opacity="0.7"/>`,
    `<path d="M${x + 30},${y + h / 2} h18 M${x + w - 48},${y + h / 2} h18" stroke="${piping}" stroke-width="3" ${LINE}/>`,
  ].join('');
}

function legs(x: number, y: number, w: number, colour: string): string {
  return [x + 8, x + w - 14]
    .map((lx) => `<rect x="${lx}" y="${y}" width="6" height="16" rx="1.5" fill="${colour}"/>`)
    .join('');
}

function pillow(
  cx: number,
  cy: number,
  w: number,
  h: number,
  colour: string,
  flange = false,
): string {
  const l = cx - w / 2;
  const r = cx + w / 2;
  const t = cy - h / 2;
  const b = cy + h / 2;
  const path = `M${l},${t} Q${cx},${t + h * 0.12} ${r},${t} Q${r - w * 0.06},${cy} ${r},${b} Q${cx},${b - h * 0.12} ${l},${b} Q${l + w * 0.06},${cy} ${l},${t} Z`;
  return [
    `<path d="${path}" fill="${colour}" stroke="${shade(colour, flange ? 0.25 : -0.2)}" stroke-width="${flange ? 5 : 1.5}" ${LINE}/>`,
    `<ellipse cx="${cx - w * 0.12}" cy="${cy - h * 0.12}" rx="${w * 0.25}" ry="${h * 0.18}" fill="#fff" opacity="0.12"/>`,
  ].join('');
}

function foldedStack(
  x: number,
  y: number,
  w: number,
  colour: string,
  layers: number,
  stitched: boolean,
): string {
  const out: string[] = [];
  for (let i = 0; i < layers; i++) {
    const ly = y - i * 26;
    const c = shade(colour, i % 2 === 0 ? -0.04 : 0.04);
    out.push(
      `<rect x="${x + i * 4}" y="${ly}" width="${w - i * 8}" height="30" rx="12" fill="${c}" stroke="${shade(colour, -0.18)}" stroke-width="1"/>`,
    );
    if (stitched) {
      out.push(
        `<path d="M${x + 14 + i * 4},${ly + 15} H${x + w - 14 - i * 4}" stroke="${shade(colour, -0.22)}" stroke-width="1" stroke-dasharray="4 4"/>`,
      );
    }
  }
  return out.join('');
}

function bed(colour: string, duvet: string, headboard: string, base: string): string {
  return [
    shadow(200, 318, 170),
    `<rect x="60" y="120" width="280" height="120" rx="14" fill="${headboard}"/>`,
    `<rect x="40" y="250" width="320" height="52" rx="6" fill="${base}"/>`,
    legs(40, 300, 320, shade(base, -0.35)),
    `<rect x="48" y="222" width="304" height="32" rx="8" fill="${WHITE}"/>`,
    pillow(145, 205, 110, 52, shade(colour, 0.15)),
    pillow(255, 205, 110, 52, shade(colour, 0.15)),
    `<path d="M40,236 Q200,222 360,236 L364,292 Q200,306 36,292 Z" fill="${duvet}"/>`,
    `<path d="M42,238 Q200,224 358,238 L359,250 Q200,238 41,250 Z" fill="${shade(duvet, 0.25)}"/>`,
  ].join('');
}

function scene(key: SceneKey, colour: string): string {
  switch (key) {
    case 'matelas':
      return shadow(215, 300, 150) + mattress(70, 225, 250, 68, colour);
    case 'sommier':
      return (
        shadow(215, 300, 150) + box(70, 240, 250, 40, 40, colour, 3) + legs(70, 278, 250, WOOD)
      );
    case 'ensemble':
      return (
        shadow(215, 304, 150) +
        box(70, 252, 250, 36, 40, colour, 3) +
        legs(70, 286, 250, WOOD) +
        mattress(70, 196, 250, 56, WHITE)
      );
    case 'oreiller':
      return (
        shadow(200, 292, 120) +
        pillow(215, 222, 210, 100, shade(colour, -0.05)) +
        pillow(195, 248, 220, 100, colour)
      );
    case 'couette':
      return shadow(200, 300, 140) + foldedStack(80, 266, 240, colour, 4, true);
    case 'drap':
      return (
        shadow(200, 300, 130) +
        foldedStack(90, 266, 220, colour, 5, false) +
        `<rect x="190" y="150" width="20" height="146" fill="${shade(WOOD, 0.45)}" opacity="0.9"/>`
      );
    case 'housse':
      return bed(colour, colour, shade(WOOD, 0.3), shade(WOOD, 0.1));
    case 'taie':
      return (
        shadow(200, 300, 140) +
        pillow(225, 205, 200, 120, shade(colour, -0.06), true) +
        pillow(185, 240, 200, 120, colour, true)
      );
    case 'protege':
      return (
        shadow(215, 300, 150) +
        mattress(70, 225, 250, 68, WHITE, false) +
        `<path d="M82,208 L298,208 M90,198 L306,198 M98,188 L314,188" stroke="${shade(colour, -0.2)}" stroke-width="1" stroke-dasharray="3 5"/>` +
        `<path d="M70,229 Q66,262 74,292" stroke="#9AA0A6" stroke-width="6" fill="none" ${LINE}/>`
      );
    case 'surmatelas':
      return (
        shadow(215, 300, 150) +
        box(70, 270, 200, 22, 40, colour, 8) +
        `<circle cx="300" cy="262" r="30" fill="${shade(colour, -0.05)}" stroke="${shade(colour, -0.2)}" stroke-width="2"/>` +
        `<path d="M300,262 m-18,0 a18,18 0 1,1 36,0 a12,12 0 1,1 -24,0 a6,6 0 1,1 12,0" fill="none" stroke="${shade(colour, -0.25)}" stroke-width="2"/>`
      );
    case 'traversin':
      return (
        shadow(200, 292, 150) +
        `<rect x="60" y="220" width="280" height="62" rx="31" fill="${colour}" stroke="${shade(colour, -0.2)}" stroke-width="1.5"/>` +
        `<ellipse cx="92" cy="251" rx="10" ry="28" fill="${shade(colour, -0.1)}"/>` +
        `<ellipse cx="308" cy="251" rx="10" ry="28" fill="${shade(colour, -0.1)}"/>` +
        `<ellipse cx="180" cy="236" rx="90" ry="8" fill="#fff" opacity="0.15"/>`
      );
    case 'plaid': {
      const ribs = Array.from(
        { length: 16 },
        (_, i) =>
          `<path d="M${98 + i * 13},196 v94" stroke="${shade(colour, -0.15)}" stroke-width="2" opacity="0.6"/>`,
      ).join('');
      const fringe = Array.from(
        { length: 26 },
        (_, i) =>
          `<path d="M${96 + i * 8},290 v12" stroke="${shade(colour, -0.1)}" stroke-width="2" ${LINE}/>`,
      ).join('');
      return (
        shadow(200, 306, 130) +
        `<rect x="90" y="190" width="220" height="100" rx="10" fill="${colour}"/>` +
        ribs +
        fringe +
        `<path d="M90,220 Q200,206 310,220" stroke="${shade(colour, 0.2)}" stroke-width="4" fill="none"/>`
      );
    }
    case 'tete': {
      const buttons: string[] = [];
      for (let row = 0; row < 3; row++) {
        for (let col = 0; col < 6; col++) {
          const bx = 95 + col * 42 + (row % 2) * 21;
          buttons.push(
            `<circle cx="${bx}" cy="${120 + row * 30}" r="3" fill="${shade(colour, -0.3)}"/>`,
          );
        }
      }
      return (
        `<path d="M70,240 V120 Q70,80 110,80 H290 Q330,80 330,120 V240 Z" fill="${colour}"/>` +
        `<path d="M70,240 V120 Q70,80 110,80 H290 Q330,80 330,120 V240" fill="none" stroke="${shade(colour, -0.2)}" stroke-width="4"/>` +
        buttons.join('') +
        shadow(200, 318, 160) +
        `<rect x="56" y="236" width="288" height="60" rx="6" fill="#D9D4CB"/>` +
        `<rect x="60" y="214" width="280" height="28" rx="8" fill="${WHITE}"/>` +
        pillow(150, 200, 100, 46, WHITE) +
        pillow(250, 200, 100, 46, WHITE) +
        `<path d="M54,230 Q200,218 346,230 L348,290 Q200,300 52,290 Z" fill="#CFC8BC"/>`
      );
    }
    case 'cadre':
      return (
        shadow(200, 318, 170) +
        `<rect x="70" y="130" width="260" height="112" rx="4" fill="${colour}"/>` +
        Array.from(
          { length: 7 },
          (_, i) =>
            `<rect x="${88 + i * 34}" y="146" width="16" height="90" rx="3" fill="${shade(colour, luminance(colour) > 0.5 ? -0.12 : 0.12)}"/>`,
        ).join('') +
        `<rect x="46" y="248" width="308" height="30" rx="3" fill="${colour}"/>` +
        legs(46, 276, 308, shade(colour, -0.2)) +
        `<rect x="52" y="222" width="296" height="30" rx="8" fill="${WHITE}"/>` +
        pillow(150, 206, 104, 46, WHITE) +
        pillow(250, 206, 104, 46, WHITE) +
        `<path d="M50,236 Q200,224 350,236 L352,270 Q200,282 48,270 Z" fill="#DCD6CC"/>`
      );
    case 'coffre':
      return (
        bed(WHITE, '#DCD6CC', colour, colour) +
        `<path d="M44,276 H356" stroke="${shade(colour, -0.25)}" stroke-width="2"/>`
      );
  }
}

/** The SVG of one pool picture, 400x400 user units. View 'b' is a close-up of the same scene. */
export function pictureSvg(image: PoolImage, size: number): string {
  const viewBox = image.view === 'b' ? '80 110 250 250' : '0 0 400 400';
  const background = image.view === 'b' ? '#EFE9E1' : '#F4F1EC';
  const zoom = ['housse', 'tete', 'cadre', 'coffre'].includes(image.scene) ? 1.12 : 1.35;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="${viewBox}">`,
    '<defs><linearGradient id="wall" x1="0" y1="0" x2="0" y2="1">',
    `<stop offset="0" stop-color="${background}"/><stop offset="1" stop-color="${shade(background, -0.04)}"/>`,
    '</linearGradient></defs>',
    '<rect x="0" y="0" width="400" height="400" fill="url(#wall)"/>',
    `<rect x="0" y="300" width="400" height="100" fill="${shade(background, -0.07)}"/>`,
    // The scenes are drawn small; scaled up around their centre to fill the square.
    `<g transform="translate(200,225) scale(${zoom}) translate(-200,-240)">${scene(image.scene, image.hex)}</g>`,
    '</svg>',
  ].join('');
}

interface Raster {
  data: Buffer;
  info: { width: number; height: number; channels: 1 | 2 | 3 | 4 };
}

async function render(image: PoolImage, dir: string): Promise<void> {
  // Each size drawn from the SVG or from the next bigger raster: resizing 1280 px costs more than drawing.
  const draw = (px: number): Promise<Raster> =>
    sharp(Buffer.from(pictureSvg(image, px)))
      .flatten({ background: '#ffffff' })
      .raw()
      .toBuffer({ resolveWithObject: true });
  const write = async (
    size: ImageSize,
    pipeline: ReturnType<typeof sharp>,
    quality: number,
  ): Promise<void> => {
    writeFileSync(join(dir, size, `${image.key}.jpg`), await pipeline.jpeg({ quality }).toBuffer());
  };
  const fromRaw = (raw: Raster): ReturnType<typeof sharp> =>
    sharp(raw.data, {
      raw: { width: raw.info.width, height: raw.info.height, channels: raw.info.channels },
    });
  const [zoom, standard] = await Promise.all([draw(1280), draw(800)]);
  await Promise.all([
    write('1280x1280', fromRaw(zoom), 84),
    write('800x800', fromRaw(standard), 84),
    write('340x340', fromRaw(standard).resize(340, 340), 80),
    write('80x80', fromRaw(standard).resize(80, 80), 75),
  ]);
}

function complete(dir: string): boolean {
  const marker = join(dir, `.complete-v${IMAGES_VERSION}`);
  return existsSync(marker);
}

/**
 * Ensures `{dir}/{size}/{key}.jpg` exist for the whole pool. Pictures are drawn once into
 * `sharedCache` (when given) and copied from there into each data dir.
 */
export async function ensureImages(
  dir: string,
  sharedCache?: string,
): Promise<{ generated: boolean; ms: number }> {
  const started = performance.now();
  if (complete(dir)) return { generated: false, ms: performance.now() - started };
  const source = sharedCache && complete(sharedCache) ? sharedCache : undefined;
  for (const size of IMAGE_SIZES) mkdirSync(join(dir, size), { recursive: true });
  if (source) {
    for (const size of IMAGE_SIZES) {
      for (const file of readdirSync(join(source, size)))
        copyFileSync(join(source, size, file), join(dir, size, file));
    }
  } else {
    const pool = imagePool();
    const queue = [...pool];
    const workers = Array.from({ length: 4 }, async () => {
      for (let image = queue.shift(); image; image = queue.shift()) await render(image, dir);
    });
    await Promise.all(workers);
    if (sharedCache && sharedCache !== dir) {
      for (const size of IMAGE_SIZES) {
        mkdirSync(join(sharedCache, size), { recursive: true });
        for (const file of readdirSync(join(dir, size)))
          copyFileSync(join(dir, size, file), join(sharedCache, size, file));
      }
      writeFileSync(join(sharedCache, `.complete-v${IMAGES_VERSION}`), '');
    }
  }
  writeFileSync(join(dir, `.complete-v${IMAGES_VERSION}`), '');
  return { generated: !source, ms: performance.now() - started };
}
