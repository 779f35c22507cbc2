import { Readable } from 'node:stream';
import { DataStore, ERRORS, Upload } from '@tus/utils';
import type { Orm } from '../../db/orm.js';
import type { StorageDriver } from '../../storage/storage.js';

const UPLOAD_ID = /^[0-9a-f]{32}$/;
/**
 * Bytes of a PATCH buffered before they are stored as a part: a process that dies mid-request loses at most this much
 * of it (the rest is committed), and a 300 MB upload is about 40 parts.
 */
const PART_BYTES = 8 * 1024 * 1024;

/** Where a part of an upload lives: outside the documented media folders, so /media never serves it. */
const partKey = (id: string, offset: number) => `resumable-uploads/${id}/${offset}.part`;

interface UploadRow {
  id: string;
  size: string | null;
  offset: string;
  parts: string[];
  metadata: Record<string, string | null>;
  created_at: Date;
}

/**
 * tus uploads in shared storage: each PATCH's bytes become one part object in the media storage (the GCS bucket, or
 * DATA_DIR/media), and the upload's state (declared size, offset, parts, metadata) is a row in PostgreSQL. Every API
 * process sees the same uploads, so one begun through one server resumes and finishes through another, and none is
 * lost with a machine's disk. A PATCH's bytes are stored every PART_BYTES and when it ends, also when it is cut off, so
 * the client resumes from the offset HEAD reports, as tus intends. Requests on one upload are serialised by
 * the shared tus lock (see SharedUploadLocker), so a row changes under one writer at a time.
 */
export class SharedUploadStore extends DataStore {
  constructor(
    private readonly orm: Orm,
    private readonly storage: StorageDriver,
  ) {
    super();
    this.extensions = ['creation', 'creation-with-upload', 'creation-defer-length', 'termination'];
  }

  private sql<T>(query: string, params: unknown[] = []): Promise<T[]> {
    return this.orm.em.fork().getConnection().execute<T[]>(query, params);
  }

  private async row(id: string): Promise<UploadRow | null> {
    if (!UPLOAD_ID.test(id)) return null;
    const [row] = await this.sql<UploadRow>('select * from resumable_upload where id = ?', [id]);
    return row ?? null;
  }

  override async create(upload: Upload): Promise<Upload> {
    await this.sql('insert into resumable_upload (id, size, "offset", metadata, created_at) values (?, ?, 0, ?, now())', [
      upload.id,
      upload.size ?? null,
      JSON.stringify(upload.metadata ?? {}),
    ]);
    return upload;
  }

  override async write(stream: Readable, id: string, offset: number): Promise<number> {
    let at = offset;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const commit = async () => {
      if (pendingBytes === 0) return;
      const part = Buffer.concat(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
      await this.writePart(id, at, part);
      at += part.length;
    };
    try {
      for await (const chunk of stream) {
        pending.push(chunk as Buffer);
        pendingBytes += (chunk as Buffer).length;
        if (pendingBytes >= PART_BYTES) await commit();
      }
    } catch {
      // The request was cut off: what arrived still counts (the client resumes after it).
    }
    await commit();
    return at;
  }

  private async writePart(id: string, offset: number, part: Buffer): Promise<void> {
    const key = partKey(id, offset);
    await this.storage.put(key, part);
    const updated = await this.sql<{ offset: string }>(
      `update resumable_upload set "offset" = "offset" + ?, parts = array_append(parts, ?::bigint)
        where id = ? and "offset" = ? returning "offset"`,
      [part.length, offset, id, offset],
    );
    if (updated.length === 0) {
      // Removed meanwhile: this part belongs to nothing.
      await this.storage.delete(key);
      throw ERRORS.FILE_NOT_FOUND;
    }
  }

  override async getUpload(id: string): Promise<Upload> {
    const row = await this.row(id);
    if (!row) throw ERRORS.FILE_NOT_FOUND;
    return new Upload({
      id: row.id,
      size: row.size === null ? undefined : Number(row.size),
      offset: Number(row.offset),
      metadata: row.metadata,
      creation_date: new Date(row.created_at).toISOString(),
    });
  }

  override async declareUploadLength(id: string, length: number): Promise<void> {
    await this.sql('update resumable_upload set size = ? where id = ?', [length, id]);
  }

  override async remove(id: string): Promise<void> {
    const [row] = UPLOAD_ID.test(id)
      ? await this.sql<Pick<UploadRow, 'parts' | 'offset'>>('delete from resumable_upload where id = ? returning parts, "offset"', [id])
      : [];
    if (!row) throw ERRORS.FILE_NOT_FOUND;
    // The parts, and whatever a write cut off at the current offset left behind.
    const offsets = [...row.parts.map(Number), Number(row.offset)];
    await Promise.all(offsets.map((offset) => this.storage.delete(partKey(id, offset)).catch(() => undefined)));
  }

  /** An upload's bytes, its parts one after the other. */
  read(id: string): Readable {
    const store = this;
    return Readable.from(
      (async function* () {
        const row = await store.row(id);
        if (!row) throw ERRORS.FILE_NOT_FOUND;
        for (const offset of row.parts) yield* store.storage.get(partKey(id, Number(offset)));
      })(),
    );
  }

  /** Bytes the member's uploads hold or have declared (an upload with no declared length counts as `undeclared`). */
  async openBytesOf(ownerId: string, undeclared: number): Promise<number> {
    const [row] = await this.sql<{ bytes: string | null }>(
      `select sum(coalesce(size, ?)) as bytes from resumable_upload where metadata->>'owner' = ?`,
      [undeclared, ownerId],
    );
    return Number(row?.bytes ?? 0);
  }

  /** Ids of uploads created before `before`. */
  async createdBefore(before: Date): Promise<string[]> {
    const rows = await this.sql<{ id: string }>('select id from resumable_upload where created_at < ?', [before]);
    return rows.map((row) => row.id);
  }
}
