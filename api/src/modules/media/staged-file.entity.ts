import { defineEntity, p } from '@mikro-orm/core';

/**
 * A file of a create-mix still in progress, recorded before its first byte is written: the record goes in the
 * transaction that commits the draft naming the file. A record whose process has died names a file nobody will ever
 * use; the upload staging sweep deletes it. Only SQL reads it.
 */
export const StagedFile = defineEntity({
  name: 'StagedFile',
  tableName: 'staged_file',
  properties: {
    /** The storage key, such as `mix/mix-audio/{file}`. */
    key: p.string().length(200).primary(),
    /** The API process writing it (see UploadStaging): while that process lives, its records are not swept. */
    instance: p.string().length(32).index('staged_file_instance_idx'),
    createdAt: p.datetime(),
  },
});
