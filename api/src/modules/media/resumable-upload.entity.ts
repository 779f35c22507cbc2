import { defineEntity, p } from '@mikro-orm/core';

/**
 * A tus upload in progress or finished, shared by every API process: its bytes are parts in the media storage (the
 * bucket, or DATA_DIR/media), one per PATCH, and this row says which, so an upload begun through one server can be
 * resumed and finished through another. Only SQL reads it (see SharedUploadStore).
 */
export const ResumableUpload = defineEntity({
  name: 'ResumableUpload',
  tableName: 'resumable_upload',
  properties: {
    /** tus' id: 32 hexadecimal digits. */
    id: p.string().length(32).primary(),
    /** Declared length in bytes; null until the client declares it (tus creation-defer-length). */
    size: p.bigint('number').nullable(),
    /** Bytes received, all in parts. */
    offset: p.bigint('number'),
    /** The offset each part starts at, in order: part keys are named by them. */
    parts: p.array().columnType('bigint[]').defaultRaw(`'{}'`),
    /** tus metadata, with the owner's id under `owner`. */
    metadata: p.json<Record<string, string | null>>(),
    createdAt: p.datetime().index('resumable_upload_created_idx'),
  },
});
