/**
 * What a picture file is, judged by its first bytes (its signature), never by its name or its
 * Content-Type: the picture proxy refuses a source that is not a raster picture (an SVG, HTML
 * or XML file can carry script), and the build shows the placeholder instead of one
 * (`image-service.ts`).
 */
export type RasterFormat = 'jpeg' | 'png' | 'gif' | 'webp' | 'avif';

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false;
  return signature.every((byte, index) => bytes[offset + index] === byte);
}

const ascii = (text: string): number[] => Array.from(Buffer.from(text, 'ascii'));

/**
 * The raster format the bytes start with, by their signature, or null (SVG, HTML, XML, text,
 * anything else). No leading whitespace or byte-order mark is skipped: a picture file starts
 * with its signature.
 */
export function rasterFormat(bytes: Uint8Array): RasterFormat | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'webp';
  if (
    startsWith(bytes, ascii('ftyp'), 4) &&
    (startsWith(bytes, ascii('avif'), 8) || startsWith(bytes, ascii('avis'), 8))
  ) {
    return 'avif';
  }
  return null;
}
