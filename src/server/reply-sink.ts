/**
 * What Astro's node handler writes, caught before it reaches the socket. `@astrojs/node`
 * (middleware mode) renders into a Node `ServerResponse` (`writeResponse` of `astro/app/node`:
 * `statusMessage`, `writeHead`, `write`, `end`, `on('close')`, and on failure `statusCode` +
 * `end` or `destroy`). A `ReplySink` stands in that place so the server can add its headers,
 * compress and cache the reply: it keeps the head and the body until the server decides, at
 * the head, either to keep buffering (the whole reply is handed over at the end) or to stream
 * the rest to a target of its choosing.
 */
import { EventEmitter } from 'node:events';
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';

/** Status and headers as the application wrote them (header names lower-case). */
export interface ReplyHead {
  status: number;
  headers: OutgoingHttpHeaders;
}

/** A whole reply, buffered. */
export interface BufferedReply extends ReplyHead {
  body: Buffer;
}

/** Where a streamed reply goes once the head is decided. */
export interface ReplyTarget {
  write(chunk: Buffer): void;
  end(): void;
  /** The render failed after the head: cut the reply short. */
  abort(error?: Error): void;
}

export interface ReplySinkOptions {
  /**
   * Called once, when the head is written: a target to stream the body to, or null to buffer
   * the whole reply (resolved by `done`).
   */
  onHead?(head: ReplyHead): ReplyTarget | null;
  /** Most bytes buffered; past it `onOverflow` gets the head and the bytes so far. */
  maxBuffer?: number;
  /** Where to stream a buffered reply that grew past `maxBuffer` (else it fails). */
  onOverflow?(head: ReplyHead, buffered: Buffer): ReplyTarget;
}

type Callback = (error?: Error | null) => void;

function toBuffer(chunk: unknown, encoding?: BufferEncoding): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
  if (typeof chunk === 'string') return Buffer.from(chunk, encoding ?? 'utf8');
  return Buffer.alloc(0);
}

/**
 * A stand-in `ServerResponse` for Astro's handler. `done` resolves with the buffered reply
 * (null when it was streamed to a target) and rejects when the render failed midway.
 */
export class ReplySink extends EventEmitter {
  statusCode = 200;
  statusMessage = '';
  headersSent = false;
  writableEnded = false;
  destroyed = false;
  readonly req: IncomingMessage;
  readonly done: Promise<BufferedReply | null>;
  #headers: OutgoingHttpHeaders = {};
  #chunks: Buffer[] = [];
  #size = 0;
  #target: ReplyTarget | null = null;
  #options: ReplySinkOptions;
  #resolve!: (reply: BufferedReply | null) => void;
  #reject!: (error: Error) => void;

  constructor(req: IncomingMessage, options: ReplySinkOptions = {}) {
    super();
    this.req = req;
    this.#options = options;
    this.done = new Promise((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    // `done` may be awaited late (or never, once streamed): no unhandled rejection meanwhile.
    this.done.catch(() => undefined);
  }

  setHeader(name: string, value: number | string | readonly string[]): this {
    this.#headers[name.toLowerCase()] = typeof value === 'object' ? Array.from(value) : value;
    return this;
  }

  getHeader(name: string): number | string | string[] | undefined {
    return this.#headers[name.toLowerCase()];
  }

  getHeaders(): OutgoingHttpHeaders {
    return { ...this.#headers };
  }

  hasHeader(name: string): boolean {
    return name.toLowerCase() in this.#headers;
  }

  removeHeader(name: string): void {
    // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- a header map
    delete this.#headers[name.toLowerCase()];
  }

  writeHead(
    status: number,
    reasonOrHeaders?: string | OutgoingHttpHeaders | readonly string[],
    maybeHeaders?: OutgoingHttpHeaders | readonly string[],
  ): this {
    if (this.headersSent) return this;
    const headers = typeof reasonOrHeaders === 'string' ? maybeHeaders : reasonOrHeaders;
    if (Array.isArray(headers)) {
      // The raw form [name, value, name, value...].
      for (let i = 0; i + 1 < headers.length; i += 2) {
        this.#append(String(headers[i]), String(headers[i + 1]));
      }
    } else if (headers) {
      for (const [name, value] of Object.entries(headers as OutgoingHttpHeaders)) {
        if (value !== undefined) this.setHeader(name, value);
      }
    }
    this.statusCode = status;
    this.headersSent = true;
    this.#target = this.#options.onHead?.(this.#head()) ?? null;
    return this;
  }

  flushHeaders(): void {
    if (!this.headersSent) this.writeHead(this.statusCode);
  }

  write(
    chunk: unknown,
    encodingOrCallback?: BufferEncoding | Callback,
    callback?: Callback,
  ): boolean {
    if (this.writableEnded || this.destroyed) return false;
    if (!this.headersSent) this.writeHead(this.statusCode);
    const encoding = typeof encodingOrCallback === 'string' ? encodingOrCallback : undefined;
    this.#push(toBuffer(chunk, encoding));
    const cb = typeof encodingOrCallback === 'function' ? encodingOrCallback : callback;
    if (cb)
      queueMicrotask(() => {
        cb();
      });
    return true;
  }

  end(chunk?: unknown, encodingOrCallback?: BufferEncoding | Callback, callback?: Callback): this {
    if (this.writableEnded || this.destroyed) return this;
    if (typeof chunk === 'function') return this.end(undefined, undefined, chunk as Callback);
    if (!this.headersSent) this.writeHead(this.statusCode);
    if (chunk !== undefined && chunk !== null) {
      const encoding = typeof encodingOrCallback === 'string' ? encodingOrCallback : undefined;
      this.#push(toBuffer(chunk, encoding));
    }
    this.writableEnded = true;
    if (this.#target) {
      this.#target.end();
      this.#resolve(null);
    } else {
      this.#resolve({ ...this.#head(), body: Buffer.concat(this.#chunks, this.#size) });
    }
    this.emit('finish');
    this.emit('close');
    const cb = typeof encodingOrCallback === 'function' ? encodingOrCallback : callback;
    if (cb)
      queueMicrotask(() => {
        cb();
      });
    return this;
  }

  destroy(error?: Error): this {
    if (this.destroyed || this.writableEnded) return this;
    this.destroyed = true;
    const failure = error ?? new Error('The reply was destroyed before its end');
    this.#target?.abort(failure);
    this.#reject(failure);
    this.emit('close');
    return this;
  }

  /** The client went away: tells the renderer (Astro cancels its body reader on `close`). */
  abandon(): void {
    if (!this.writableEnded && !this.destroyed) this.destroy(new Error('Client closed'));
  }

  #head(): ReplyHead {
    return { status: this.statusCode, headers: { ...this.#headers } };
  }

  #append(name: string, value: string): void {
    const key = name.toLowerCase();
    const existing = this.#headers[key];
    if (existing === undefined) this.#headers[key] = value;
    else this.#headers[key] = [...[existing].flat().map(String), value];
  }

  #push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    if (this.#target) {
      this.#target.write(chunk);
      return;
    }
    this.#chunks.push(chunk);
    this.#size += chunk.length;
    const max = this.#options.maxBuffer;
    if (max === undefined || this.#size <= max) return;
    const buffered = Buffer.concat(this.#chunks, this.#size);
    this.#chunks = [];
    this.#size = 0;
    if (this.#options.onOverflow) {
      this.#target = this.#options.onOverflow(this.#head(), buffered);
    } else {
      this.destroy(new Error(`Reply larger than ${max} bytes`));
    }
  }
}
