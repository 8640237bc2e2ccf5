/**
 * The picture pre-encoder's process (`image-service.ts`, `EncoderProcess`): started by its path
 * as a child of the build (`node image-encoder-worker.ts`, an IPC channel, advanced
 * serialization), it lowers its own priority to the lowest (nice 19) before anything starts a
 * thread (threads inherit it), loads Astro's sharp service from `PREENCODE_SHARP_SERVICE`, then
 * for each job it is sent fetches the source, hashes it and encodes each transform.
 *
 * Every fetch has a deadline, the build's `FETCH_TIMEOUT_MS` (src/server/fetch-deadlines.ts,
 * 30 s by default), over the whole fetch: a host that accepts the connection and says nothing
 * fails the job (its variants come back null and Astro's own image step encodes them) instead
 * of holding the encoder. Redirects are not followed: those are left to Astro's step.
 */
import { createHash } from 'node:crypto';
import { setPriority } from 'node:os';
import type { LocalImageService } from 'astro';
import { fetchTimeoutFromEnv } from '../../server/fetch-deadlines.ts';

type Transform = Parameters<LocalImageService['transform']>[1];
type ImageConfig = Parameters<LocalImageService['transform']>[2];
type Level = 'info' | 'warn' | 'error';

/** A job as `EncoderProcess` sends it. */
export interface EncodeRequest {
  id: number;
  src: string;
  transforms: Transform[];
  config: ImageConfig;
}

/** One variant encoded, as the process sends it back (null: not encoded). */
export interface EncodedReply {
  digest: string;
  output: { data: Uint8Array; format: string };
  messages: { level: Level; message: string }[];
}

/**
 * The bytes of `src`, fetched within `timeoutMs` (connecting, the headers and the whole body);
 * throws, naming the source, on a status other than 200 (a redirect included) or past the
 * deadline.
 */
export async function fetchSource(src: string, timeoutMs: number): Promise<Uint8Array> {
  try {
    const response = await fetch(src, {
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new Error(`status ${String(response.status)}`);
    }
    return new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
    const why = timedOut
      ? `no answer within ${String(timeoutMs)} ms`
      : error instanceof Error
        ? error.message
        : String(error);
    throw new Error(`could not fetch ${src}: ${why}`, { cause: error });
  }
}

/** Encodes each transform of one job: null for a variant that could not be. */
export async function encodeJob(
  service: Pick<LocalImageService, 'transform'>,
  request: Omit<EncodeRequest, 'id'>,
  timeoutMs: number,
): Promise<(EncodedReply | null)[]> {
  let bytes: Uint8Array;
  try {
    bytes = await fetchSource(request.src, timeoutMs);
  } catch {
    return request.transforms.map(() => null);
  }
  const digest = createHash('sha256').update(bytes).digest('hex');
  const results: (EncodedReply | null)[] = [];
  for (const transform of request.transforms) {
    const messages: EncodedReply['messages'] = [];
    const record = (level: Level) => (message: unknown) => {
      messages.push({ level, message: String(message) });
    };
    const logger = { info: record('info'), warn: record('warn'), error: record('error') };
    try {
      const output = await service.transform(bytes, transform, request.config, logger);
      results.push({ digest, output: { data: output.data, format: output.format }, messages });
    } catch {
      results.push(null);
    }
  }
  return results;
}

/** The process: jobs in over IPC, variants out, until the build disconnects. */
async function main(): Promise<void> {
  try {
    setPriority(19);
  } catch {
    // Not allowed here: it runs at the build's priority.
  }
  const send = process.send?.bind(process);
  if (send === undefined) throw new Error('image-encoder-worker.ts runs as a child with IPC');
  const timeoutMs = fetchTimeoutFromEnv(process.env);
  let service: LocalImageService;
  try {
    const url = process.env.PREENCODE_SHARP_SERVICE ?? 'astro/assets/services/sharp';
    ({ default: service } = (await import(url)) as { default: LocalImageService });
  } catch (error) {
    console.warn(
      `[image-service] background encoding off: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(1);
  }
  process.on('disconnect', () => process.exit(0));
  process.on('message', (message: EncodeRequest) => {
    const { id, ...request } = message;
    void encodeJob(service, request, timeoutMs).then((results) => {
      send({ id, results });
    });
  });
  send({ ready: true });
}

if (import.meta.main) await main();
