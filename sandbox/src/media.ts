/**
 * Sounds of the sandbox's content assets: a short, quiet WAV tone (PCM 16-bit mono, 8 kHz) with
 * a slow swell and fades, generated in code. There is no video encoder without new
 * dependencies, so video assets are WAV files too, served as `audio/wav` (README).
 */

const RATE = 8_000;
const HEADER = 44;

/** Bytes of a WAV of `seconds`. */
export function wavSize(seconds: number): number {
  return HEADER + Math.round(RATE * seconds) * 2;
}

const cache = new Map<string, Buffer>();

/** A quiet tone of `frequency` Hz lasting `seconds` (cached). */
export function toneWav(frequency: number, seconds: number): Buffer {
  const key = `${frequency}/${seconds}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const samples = Math.round(RATE * seconds);
  const buffer = Buffer.alloc(HEADER + samples * 2);
  buffer.write('RIFF', 0, 'ascii');
  buffer.writeUInt32LE(36 + samples * 2, 4);
  buffer.write('WAVE', 8, 'ascii');
  buffer.write('fmt ', 12, 'ascii');
  buffer.writeUInt32LE(16, 16); // fmt chunk size
  buffer.writeUInt16LE(1, 20); // PCM
  buffer.writeUInt16LE(1, 22); // mono
  buffer.writeUInt32LE(RATE, 24);
  buffer.writeUInt32LE(RATE * 2, 28); // byte rate
  buffer.writeUInt16LE(2, 32); // block align
  buffer.writeUInt16LE(16, 34); // bits per sample
  buffer.write('data', 36, 'ascii');
  buffer.writeUInt32LE(samples * 2, 40);
  const fade = RATE * 0.4;
  for (let i = 0; i < samples; i++) {
    const t = i / RATE;
    const envelope = Math.min(1, i / fade, (samples - i) / fade);
    const swell = 0.75 + 0.25 * Math.sin(2 * Math.PI * 0.5 * t);
    // Fundamental and a soft fifth above: a calm chord rather than a beep.
    const wave =
      0.7 * Math.sin(2 * Math.PI * frequency * t) +
      0.3 * Math.sin(2 * Math.PI * frequency * 1.5 * t);
    buffer.writeInt16LE(Math.round(wave * envelope * swell * 0.08 * 32_767), HEADER + i * 2);
  }
  if (cache.size > 32) cache.clear();
  cache.set(key, buffer);
  return buffer;
}
