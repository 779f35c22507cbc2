import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fresh from 'fresh';
import rangeParser from 'range-parser';
import { bearerToken } from '../graphql/context.js';
import { loggableUrl } from '../logger.js';
import type { FileAccess } from '../modules/mixes/mix.policy.js';
import type { Services } from '../services.js';
import { type ByteRange, contentTypeOf, parseObjectKey, type StoredObject } from '../storage/storage.js';

type ObjectKeyParts = NonNullable<ReturnType<typeof parseObjectKey>>;

import { idleSocketFd } from '../storage/zero-copy.js';
import type { ErrorBody } from './errors.js';
import { mediaCorsHeaders } from './public-api/cors.js';
import { mediaSecurityHeaders } from './security-headers.js';

const YEAR_SECONDS = 365 * 24 * 60 * 60;
const PUBLIC_CACHE = `public, max-age=${YEAR_SECONDS}, immutable`;
const PRIVATE_CACHE = `private, max-age=${YEAR_SECONDS}, immutable`;
/**
 * Ranges up to this size go out as one buffer in one write, where the storage can read them at memory speed: a
 * seeking listener's requests (a player asks for a few hundred KB at a time) skip the stream machinery. Memory stays
 * bounded by this times the requests in flight; larger ranges and whole files stream.
 */
export const BUFFERED_RANGE_BYTES = 512 * 1024;
/**
 * At most this much of a range is offered to the socket with no copy: as much as a socket takes at once, and a
 * whole file's pages need not be asked about for a request that sends its start (the rest goes the usual way).
 */
const ZERO_COPY_BYTES = 1024 * 1024;
const zeroCopyPart = ({ start, end }: ByteRange): ByteRange => ({ start, end: Math.min(end, start + ZERO_COPY_BYTES - 1) });
/** Buffers kept for reuse between range requests (at most 8 MiB). */
const SPARE_RANGE_BUFFERS = 16;

/**
 * Buffers for buffered ranges, handed back once the response has written them: a fresh 512 KiB buffer per request
 * cost more CPU in allocation, page faults and garbage collection than the rest of our work on it (measured: 207-274
 * µs of server CPU per 256 KiB range with fresh buffers, 177-218 µs reusing them).
 */
class RangeBuffers {
  private readonly spare: Buffer[] = [];

  take(): Buffer {
    return this.spare.pop() ?? Buffer.allocUnsafe(BUFFERED_RANGE_BYTES);
  }

  give(buffer: Buffer): void {
    if (this.spare.length < SPARE_RANGE_BUFFERS) this.spare.push(buffer);
  }
}

export interface DeliveryPlan {
  status: 200 | 206 | 304 | 412 | 416;
  /** Names and values, one after the other (as writeHead takes them). */
  headers: string[];
  /** The bytes to send; absent for 304, 412, 416. */
  range?: ByteRange;
}

/** Strong: an object's bytes never change under its key, so size and time of writing identify them exactly. */
export const etagOf = (info: StoredObject) => `"${info.size.toString(16)}-${info.modified.getTime().toString(16)}"`;

interface Validators {
  etag: string;
  lastModified: string;
  /** The headers every answer about the object carries, by cache scope. */
  public: string[];
  private: string[];
}

/**
 * An object's validators and common headers, worked out once per stat result: the local driver hands out the same
 * result for every request to an open file, and formatting dates is a measurable part of serving a small range.
 */
const validatorCache = new WeakMap<StoredObject, Validators>();
function validatorsOf(info: StoredObject): Validators {
  let validators = validatorCache.get(info);
  if (!validators) {
    const etag = etagOf(info);
    const lastModified = info.modified.toUTCString();
    const common = ['accept-ranges', 'bytes', 'etag', etag, 'last-modified', lastModified, 'cache-control'];
    validators = { etag, lastModified, public: [...common, PUBLIC_CACHE], private: [...common, PRIVATE_CACHE] };
    validatorCache.set(info, validators);
  }
  return validators;
}

const httpDate = (value: string | undefined) => (value ? Date.parse(value) : Number.NaN);
// HTTP dates have whole seconds.
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
const etagList = (header: string) => header.split(',').map((tag) => tag.trim());

/** RFC 9110 If-Match / If-Unmodified-Since: the client's copy must still be current, else 412. */
function preconditionFails(headers: IncomingHttpHeaders, etag: string, info: StoredObject): boolean {
  const ifMatch = headers['if-match'];
  if (ifMatch) return ifMatch.trim() !== '*' && !etagList(ifMatch).includes(etag);
  const unmodifiedSince = httpDate(headers['if-unmodified-since']);
  return !Number.isNaN(unmodifiedSince) && seconds(info.modified) > unmodifiedSince / 1000;
}

/** If-Range: honour Range only when the client's partial copy is of these very bytes (a strong ETag or the exact date). */
function rangeStillValid(ifRange: string | undefined, etag: string, info: StoredObject): boolean {
  if (!ifRange) return true;
  const value = ifRange.trim();
  if (value.startsWith('"') || value.startsWith('W/')) return value === etag;
  const date = httpDate(value);
  return !Number.isNaN(date) && seconds(info.modified) <= date / 1000;
}

/**
 * What to answer to a GET or HEAD for a stored object: conditional requests (304/412), one byte range (206),
 * an unsatisfiable range (416), or the whole object. Several ranges get the whole object, as RFC 9110 allows.
 */
export function planDelivery(
  headers: IncomingHttpHeaders,
  info: StoredObject,
  contentType: string,
  cacheScope: 'public' | 'private',
): DeliveryPlan {
  const validators = validatorsOf(info);
  const { etag, lastModified } = validators;
  const base = validators[cacheScope];
  if ((headers['if-match'] !== undefined || headers['if-unmodified-since'] !== undefined) && preconditionFails(headers, etag, info))
    return { status: 412, headers: base };
  const conditional = headers['if-none-match'] !== undefined || headers['if-modified-since'] !== undefined;
  if (conditional && fresh(headers, { etag, 'last-modified': lastModified })) return { status: 304, headers: base };

  const full: DeliveryPlan = {
    status: 200,
    headers: [...base, 'content-type', contentType, 'content-length', String(info.size)],
    range: info.size > 0 ? { start: 0, end: info.size - 1 } : undefined,
  };
  const rangeHeader = headers.range;
  const ifRange = headers['if-range'];
  if (!rangeHeader || !rangeStillValid(Array.isArray(ifRange) ? ifRange[0] : ifRange, etag, info)) return full;
  const ranges = rangeParser(info.size, rangeHeader, { combine: true });
  if (ranges === -1) return { status: 416, headers: [...base, 'content-range', `bytes */${info.size}`] };
  if (ranges === -2 || ranges.type !== 'bytes' || ranges.length !== 1) return full;
  const [{ start, end }] = ranges;
  return {
    status: 206,
    headers: [
      ...base,
      'content-type',
      contentType,
      'content-length',
      String(end - start + 1),
      'content-range',
      `bytes ${start}-${end}/${info.size}`,
    ],
    range: { start, end },
  };
}

const MEDIA_PREFIX = '/media/';

/** A request the media path answers on its own (see buildApp's server): GET or HEAD under /media/. */
export const isMediaRequest = (request: IncomingMessage) =>
  (request.method === 'GET' || request.method === 'HEAD') && request.url?.startsWith(MEDIA_PREFIX) === true;

/** The object key a /media URL names (its query ignored), or null when it cannot be one. */
function objectKeyOf(url: string): string | null {
  const query = url.indexOf('?');
  const path = url.slice(MEDIA_PREFIX.length, query === -1 ? undefined : query);
  try {
    return decodeURIComponent(path);
  } catch {
    return null;
  }
}

/**
 * Answers a request: with `oneByOne` (through Fastify, whose test client reads headers set one by one), else with one
 * writeHead of every header: on a real connection Node then builds the head in one pass.
 */
export type MediaHandler = (request: IncomingMessage, response: ServerResponse, oneByOne?: boolean) => void;

function writeHead(response: ServerResponse, status: number, headers: string[], oneByOne: boolean): void {
  if (!oneByOne) {
    response.writeHead(status, headers);
    return;
  }
  for (let index = 0; index < headers.length; index += 2) response.setHeader(headers[index], headers[index + 1]);
  response.writeHead(status);
}

/**
 * GET and HEAD /media/{folder}/{file}: stored files streamed from whichever storage driver is configured, with HTTP
 * ranges and validators so a listener can seek anywhere in a two-hour mix at once, in constant memory. Access
 * follows the file's owner: a deactivated mix's files are gone at once.
 *
 * Written against Node's own request and response, which the server hands over before Fastify sees them: a seeking
 * listener sends dozens of range requests, and Fastify's per-request work (request and reply objects, hooks, routing,
 * two log lines) was 8 % of the main thread's time per range (137 -> 126 µs). A listener's ranges after the first (the
 * mix's facts remembered, its file open, its pages in memory) are answered without a promise, each a cost of its own
 * while the ORM's AsyncLocalStorage has Node track every promise in the process), and with every header in one
 * writeHead; the bytes follow the head from the file with no copy.
 */
export function mediaDelivery(services: Services, log: FastifyBaseLogger): MediaHandler {
  const { media, storage, auth } = services;
  const rangeBuffers = new RangeBuffers();
  const securityHeaders = mediaSecurityHeaders(services.config).flat();
  const corsHeaders = mediaCorsHeaders(services.config);
  const viewerOf = (headers: IncomingHttpHeaders) => async (): Promise<string | null> => {
    const header = headers['x-auth-token'];
    const token = (typeof header === 'string' && header) || bearerToken(headers.authorization);
    if (!token) return null;
    return (await auth.authenticate(token).catch(() => null))?.id ?? null;
  };
  /** Fastify's hooks never see these answers: their security and CORS headers are added here. */
  const headersFor = (request: IncomingMessage, own: string[]) => {
    const cors = corsHeaders(request);
    return cors ? [...securityHeaders, ...cors, ...own] : [...securityHeaders, ...own];
  };

  const answerError = (request: IncomingMessage, response: ServerResponse, oneByOne: boolean, status: number, message: string) => {
    const body: ErrorBody = { error: message, message, status };
    const json = JSON.stringify(body);
    const own = ['content-type', 'application/json; charset=utf-8', 'content-length', String(Buffer.byteLength(json))];
    writeHead(response, status, headersFor(request, own), oneByOne);
    response.end(json);
  };

  const failed = (request: IncomingMessage, response: ServerResponse, oneByOne: boolean, error: unknown) => {
    log.error({ err: error, url: loggableUrl(request.url ?? '') }, 'media request failed');
    if (response.headersSent) response.destroy();
    else answerError(request, response, oneByOne, 500, 'Internal server error');
  };

  /** A range that is not in memory (or not all of it went at once): read, then written; long ones streamed. */
  const sendRead = async (response: ServerResponse, key: string, range: ByteRange) => {
    if (storage.readSmallRange && range.end - range.start < BUFFERED_RANGE_BYTES) {
      const buffer = rangeBuffers.take();
      const bytes = await storage.readSmallRange(key, range, buffer);
      if (!bytes) {
        rangeBuffers.give(buffer);
        return false;
      }
      // Only once written ('finish'): a response cut off midway may still have the bytes queued, so its buffer is left to the GC.
      response.end(bytes, () => rangeBuffers.give(buffer));
      return true;
    }
    // A listener who seeks away closes the connection mid-file: that ends the pipeline, and is no failure.
    await pipeline(storage.get(key, range), response).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ERR_STREAM_PREMATURE_CLOSE') log.warn({ err: error, key }, 'media stream failed');
    });
    return true;
  };

  /** Answers once the file's access and size are known: without waiting when its pages are in memory. */
  const answer = (
    request: IncomingMessage,
    response: ServerResponse,
    oneByOne: boolean,
    key: string,
    access: FileAccess,
    info: StoredObject | null,
  ): void => {
    if (!access || !info) {
      answerError(request, response, oneByOne, 404, 'Not found');
      return;
    }
    const plan = planDelivery(request.headers, info, contentTypeOf(key), access);
    const headers = headersFor(request, plan.headers);
    if (request.method === 'HEAD' || !plan.range || plan.status >= 300) {
      writeHead(response, plan.status, headers, oneByOne);
      response.end();
      return;
    }
    let range = plan.range;
    const socketFd = idleSocketFd(response.socket);
    const inMemory = socketFd === null ? null : storage.inMemoryRange?.(key, zeroCopyPart(range));
    if (inMemory && socketFd !== null) {
      writeHead(response, plan.status, headers, oneByOne);
      response.flushHeaders();
      // The headers went straight to the socket unless it was busy: only then may the bytes follow them directly.
      const sent = idleSocketFd(response.socket) === socketFd ? inMemory.sendTo(socketFd) : 0;
      inMemory.release();
      if (range.start + sent > range.end) {
        response.end();
        return;
      }
      range = { start: range.start + sent, end: range.end };
    }
    if (!response.headersSent) writeHead(response, plan.status, headers, oneByOne);
    sendRead(response, key, range).then(
      (found) => {
        if (found) return;
        if (response.headersSent) response.destroy();
        else answerError(request, response, oneByOne, 404, 'Not found');
      },
      (error: unknown) => failed(request, response, oneByOne, error),
    );
  };

  /** A first request for a file: its mix's facts (and maybe the viewer) from the database, the file opened. */
  const lookUp = async (request: IncomingMessage, response: ServerResponse, oneByOne: boolean, key: string, parsed: ObjectKeyParts) => {
    const access = await media.fileAccess(parsed.folder, parsed.fileName, viewerOf(request.headers));
    const info = access ? (storage.openStat?.(key) ?? (await storage.stat(key))) : null;
    answer(request, response, oneByOne, key, access, info);
  };

  return (request, response, oneByOne = false) => {
    try {
      const key = objectKeyOf(request.url ?? '');
      const parsed = key === null ? null : parseObjectKey(key);
      if (key === null || !parsed) return answerError(request, response, oneByOne, 404, 'Not found');
      // A seeking listener's ranges after the first wait for nothing: the mix's facts are remembered, its file open.
      const known = media.knownFileAccess(parsed.folder, parsed.fileName);
      const info = known ? storage.openStat?.(key) : undefined;
      if (known === null || info) return answer(request, response, oneByOne, key, known ?? null, info ?? null);
      lookUp(request, response, oneByOne, key, parsed).catch((error: unknown) => failed(request, response, oneByOne, error));
    } catch (error) {
      failed(request, response, oneByOne, error);
    }
  };
}

/** The same delivery as a Fastify route, for requests that reach the app without its server (app.inject). */
export function mediaDeliveryRoutes(deliver: MediaHandler) {
  return async (app: FastifyInstance) => {
    app.route({
      method: ['GET', 'HEAD'],
      url: `${MEDIA_PREFIX}*`,
      handler: (request, reply) => {
        reply.hijack();
        deliver(request.raw, reply.raw, true);
      },
    });
  };
}
