import type { IncomingMessage, ServerResponse } from 'node:http';
import { Server, type Upload } from '@tus/server';
import { ERRORS, type Lock, type Locker, type RequestRelease } from '@tus/utils';
import type { AdvisoryLocks, HeldLock } from '../../db/advisory-locks.js';
import type { Orm } from '../../db/orm.js';
import { InvalidInputError, StorageUnavailableError } from '../../shared/errors.js';
import { isStorableText } from '../../shared/inputs.js';
import { MP3_RULE } from '../../shared/rules.js';
import type { Viewer } from '../../shared/viewer.js';
import type { FinishedUpload, StorageDriver } from '../../storage/storage.js';
import { SharedUploadStore } from './shared-upload-store.js';

export const RESUMABLE_UPLOAD_PATH = '/api/uploads';
export const RESUMABLE_MESSAGES = {
  tooMuchOpen: (limit: number) =>
    `Your unfinished uploads would hold more than ${+(limit / 1024 ** 3).toFixed(2)} GB, the most one member may keep: finish or cancel one first`,
} as const;
/** Uploads nobody turned into a mix within this time are removed, finished or not. */
export const RESUMABLE_UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;
const UPLOAD_ID = /^[0-9a-f]{32}$/;
/** How long a tus request waits for another request on the same upload to let go (tus' own default). */
const LOCK_TIMEOUT_MS = 30_000;

/**
 * tus' per-upload lock across every API process: a resumed upload asks a stale request (perhaps in another process)
 * to let go, then takes over.
 */
class SharedUploadLocker implements Locker {
  constructor(private readonly locks: AdvisoryLocks) {}

  newLock(id: string): Lock {
    let held: HeldLock | null = null;
    return {
      lock: async (signal: AbortSignal, requestRelease: RequestRelease) => {
        held = await this.locks.acquire(`tus:${id}`, { signal, timeoutMs: LOCK_TIMEOUT_MS, onReleaseRequest: requestRelease });
        if (!held) throw ERRORS.ERR_LOCK_TIMEOUT;
      },
      unlock: async () => {
        await held?.release();
        held = null;
      },
    };
  }
}

/** What @tus/server turns into an HTTP answer when a hook throws it. */
interface TusRefusal {
  status_code: number;
  body: string;
}
const refusal = (status_code: number, body: string): TusRefusal => ({ status_code, body });

/**
 * The tus resumable-upload endpoint for MP3s: a 300 MB upload survives a dropped connection and continues from the
 * offset the server confirms. Only signed-in members may upload, each only to their own uploads. Bytes wait in shared
 * storage (see SharedUploadStore: parts in the media storage, state in PostgreSQL, so any API process can resume or
 * finish an upload) until create-mix checks them and moves them into place.
 */
export class ResumableUploads {
  private readonly store: SharedUploadStore;
  private readonly server: Server;
  private readonly viewers = new WeakMap<Request, Viewer>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    orm: Orm,
    storage: StorageDriver,
    private readonly authenticate: (token: string) => Promise<Viewer>,
    private readonly locks: AdvisoryLocks,
    options: {
      trustProxy?: boolean;
      allowsOrigin?: (origin: string) => boolean;
      maxOpenBytesPerMember?: number;
      /** Refuses a member who may not upload (a repeat infringer): their refusal's status and words. */
      uploadGate?: (ownerId: string) => Promise<{ status: number; message: string } | null>;
    } = {},
  ) {
    this.store = new SharedUploadStore(orm, storage);
    this.server = new Server({
      path: RESUMABLE_UPLOAD_PATH,
      datastore: this.store,
      locker: new SharedUploadLocker(locks),
      // tus refuses an upload announced larger than maxSize: the rule's own comparison (isWithinSize).
      maxSize: MP3_RULE.maxBytes,
      relativeLocation: true,
      respectForwardedHeaders: options.trustProxy ?? false,
      allowedHeaders: ['x-auth-token'],
      // Pages on the origins CORS_ORIGINS allows may upload too (with a token they hold: there are no cookies).
      allowedOrigins: options.allowsOrigin ?? [],
      disableTerminationForFinishedUploads: false,
      onIncomingRequest: (request, id) => this.admit(request, id),
      onUploadCreate: async (request, upload) => {
        const viewer = this.viewers.get(request);
        if (!viewer) throw refusal(401, 'No token, authorization denied');
        // The metadata is kept in PostgreSQL (see SharedUploadStore), which stores no NUL or lone surrogate.
        const texts = Object.entries(upload.metadata ?? {}).flatMap(([key, value]) => [key, value ?? '']);
        if (!texts.every(isStorableText)) throw refusal(400, 'Upload-Metadata holds text that cannot be stored');
        const refused = await options.uploadGate?.(viewer.id);
        if (refused) throw refusal(refused.status, refused.message);
        const limit = options.maxOpenBytesPerMember ?? Number.POSITIVE_INFINITY;
        const open = await this.store.openBytesOf(viewer.id, MP3_RULE.maxBytes);
        if (open + (upload.size ?? MP3_RULE.maxBytes) > limit) throw refusal(409, RESUMABLE_MESSAGES.tooMuchOpen(limit));
        return { metadata: { ...upload.metadata, owner: viewer.id } };
      },
      onResponseError: async (_request, error) => {
        if (error instanceof StorageUnavailableError) return { status_code: error.status, body: error.message };
        const status = (error as Partial<TusRefusal>).status_code;
        return status === 413 ? { status_code: 413, body: MP3_RULE.tooLarge } : undefined;
      },
    });
    this.sweeper = setInterval(() => void this.sweep().catch(() => undefined), SWEEP_INTERVAL_MS).unref();
  }

  /** Hands a raw request to tus (the route has left the body unread). */
  handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    return this.server.handle(request, response);
  }

  private async admit(request: Request, id: string): Promise<void> {
    const token = request.headers.get('x-auth-token') ?? /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1];
    if (!token) throw refusal(401, 'No token, authorization denied');
    const viewer = await this.authenticate(token).catch(() => null);
    if (!viewer) throw refusal(401, 'Invalid token');
    this.viewers.set(request, viewer);
    if (request.method === 'POST') return;
    const upload = await this.find(id);
    if (upload?.metadata?.owner !== viewer.id) throw refusal(404, 'Upload not found');
  }

  private async find(id: string): Promise<Upload | null> {
    if (!UPLOAD_ID.test(id)) return null;
    return this.store.getUpload(id).catch(() => null);
  }

  /**
   * A finished upload of this member, claimed so no second request can use it at the same time. Unknown ids,
   * other members' uploads and unfinished ones are all the same 400: the MP3 is not there yet.
   */
  async claim(idOrUrl: string, ownerId: string): Promise<FinishedUpload> {
    const id = idOrUrl.trim().split('/').pop() ?? '';
    const notThere = () => new InvalidInputError('MP3 upload not found or not finished');
    const upload = await this.find(id);
    const finished = upload?.size !== undefined && upload.offset === upload.size;
    if (!upload || upload.metadata?.owner !== ownerId || !finished) throw notThere();
    // The claim is a lock every API process sees, so two requests (anywhere) cannot turn one upload into two mixes.
    const claim = await this.locks.tryAcquire(`claim:${id}`);
    if (!claim) throw notThere();
    return {
      size: upload.size ?? 0,
      stream: () => this.store.read(id),
      remove: async () => {
        await this.store.remove(id).catch(() => undefined);
        await claim.release();
      },
      release: () => void claim.release(),
    };
  }

  /** Removes uploads older than the TTL, finished or not (tus' own expiry only covers unfinished ones). */
  async sweep(now = Date.now()): Promise<number> {
    const ids = await this.store.createdBefore(new Date(now - RESUMABLE_UPLOAD_TTL_MS));
    let removed = 0;
    for (const id of ids) {
      const claim = await this.locks.tryAcquire(`claim:${id}`);
      if (!claim) continue;
      try {
        await this.store.remove(id).catch(() => undefined);
        removed += 1;
      } finally {
        await claim.release();
      }
    }
    return removed;
  }

  close(): void {
    clearInterval(this.sweeper);
  }
}
