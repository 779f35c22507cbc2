import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fresh from 'fresh';
import rangeParser from 'range-parser';
import { bearerToken } from '../graphql/context.js';
import type { FileAccess } from '../modules/media/media.service.js';
import { type ByteRange, contentTypeOf, parseObjectKey, type StoredObject } from '../modules/media/storage.js';
import type { Services } from '../services.js';
import { NotFoundError } from '../shared/errors.js';

const YEAR_SECONDS = 365 * 24 * 60 * 60;
const PUBLIC_CACHE = `public, max-age=${YEAR_SECONDS}, immutable`;
const PRIVATE_CACHE = `private, max-age=${YEAR_SECONDS}, immutable`;
/**
 * Ranges up to this size go out as one buffer in one write, where the storage can read them at memory speed: a
 * seeking listener's requests (a player asks for a few hundred KB at a time) skip the stream machinery. Memory stays
 * bounded by this times the requests in flight; larger ranges and whole files stream.
 */
export const BUFFERED_RANGE_BYTES = 1024 * 1024;

export interface DeliveryPlan {
  status: 200 | 206 | 304 | 412 | 416;
  headers: Record<string, string>;
  /** The bytes to send; absent for 304, 412, 416. */
  range?: ByteRange;
}

/** Strong: an object's bytes never change under its key, so size and time of writing identify them exactly. */
export const etagOf = (info: StoredObject) => `"${info.size.toString(16)}-${info.modified.getTime().toString(16)}"`;

/**
 * An object's validators, worked out once per stat result: the local driver hands out the same result for every
 * request to an open file, and formatting dates is a measurable part of serving a small range.
 */
const validatorCache = new WeakMap<StoredObject, { etag: string; lastModified: string }>();
function validatorsOf(info: StoredObject) {
  let validators = validatorCache.get(info);
  if (!validators) {
    validators = { etag: etagOf(info), lastModified: info.modified.toUTCString() };
    validatorCache.set(info, validators);
  }
  return validators;
}

const httpDate = (value: string | undefined) => (value ? Date.parse(value) : Number.NaN);
// HTTP dates have whole seconds.
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
const etagList = (header: string) => header.split(',').map((tag) => tag.trim());

/** RFC 9110 If-Match / If-Unmodified-Since: the client's copy must still be current, else 412. */
function preconditionFails(headers: FastifyRequest['headers'], etag: string, info: StoredObject): boolean {
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
  headers: FastifyRequest['headers'],
  info: StoredObject,
  contentType: string,
  cacheScope: 'public' | 'private',
): DeliveryPlan {
  const { etag, lastModified } = validatorsOf(info);
  const base: Record<string, string> = {
    'accept-ranges': 'bytes',
    etag,
    'last-modified': lastModified,
    'cache-control': cacheScope === 'public' ? PUBLIC_CACHE : PRIVATE_CACHE,
  };
  if (preconditionFails(headers, etag, info)) return { status: 412, headers: base };
  const conditional = headers['if-none-match'] !== undefined || headers['if-modified-since'] !== undefined;
  if (conditional && fresh(headers, { etag, 'last-modified': lastModified })) return { status: 304, headers: base };

  const whole = { start: 0, end: info.size - 1 };
  const full: DeliveryPlan = {
    status: 200,
    headers: { ...base, 'content-type': contentType, 'content-length': String(info.size) },
    range: info.size > 0 ? whole : undefined,
  };
  const rangeHeader = headers.range;
  const ifRange = headers['if-range'];
  if (!rangeHeader || !rangeStillValid(Array.isArray(ifRange) ? ifRange[0] : ifRange, etag, info)) return full;
  const ranges = rangeParser(info.size, rangeHeader, { combine: true });
  if (ranges === -1) return { status: 416, headers: { ...base, 'content-range': `bytes */${info.size}` } };
  if (ranges === -2 || ranges.type !== 'bytes' || ranges.length !== 1) return full;
  const [{ start, end }] = ranges;
  return {
    status: 206,
    headers: {
      ...base,
      'content-type': contentType,
      'content-length': String(end - start + 1),
      'content-range': `bytes ${start}-${end}/${info.size}`,
    },
    range: { start, end },
  };
}

/**
 * GET and HEAD /media/{SPEC path}: stored files streamed from whichever storage driver is configured, with HTTP
 * ranges and validators so a listener can seek anywhere in a two-hour mix at once, in constant memory. Access
 * follows the file's owner: a deactivated mix's files are gone at once.
 */
export function mediaDeliveryRoutes(services: Services) {
  const { media, storage, auth } = services;
  const viewerOf = (request: FastifyRequest) => async (): Promise<string | null> => {
    const header = request.headers['x-auth-token'];
    const token = (typeof header === 'string' && header) || bearerToken(request.headers.authorization);
    if (!token) return null;
    return (await auth.authenticate(token).catch(() => null))?.id ?? null;
  };

  return async (app: FastifyInstance) => {
    app.route<{ Params: { '*': string } }>({
      method: ['GET', 'HEAD'],
      url: '/media/*',
      // Audio and images are compressed formats already.
      compress: false,
      handler: async (request, reply: FastifyReply) => {
        const key = request.params['*'];
        const parsed = parseObjectKey(key);
        const access: FileAccess = parsed ? await media.fileAccess(parsed.folder, parsed.fileName, viewerOf(request)) : null;
        const info = access ? await storage.stat(key) : null;
        if (!access || !info) throw new NotFoundError('Not found');
        const plan = planDelivery(request.headers, info, contentTypeOf(key), access);
        reply.status(plan.status).headers(plan.headers);
        if (request.method === 'HEAD' || !plan.range || plan.status >= 300) return reply.send();
        if (storage.readSmallRange && plan.range.end - plan.range.start < BUFFERED_RANGE_BYTES) {
          const bytes = await storage.readSmallRange(key, plan.range);
          if (!bytes) throw new NotFoundError('Not found');
          return reply.send(bytes);
        }
        return reply.send(storage.get(key, plan.range));
      },
    });
  };
}
