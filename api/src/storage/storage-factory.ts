import { join } from 'node:path';
import type { Config } from '../config.js';
import { GcsStorage } from './gcs-storage.js';
import { LocalStorage } from './local-storage.js';
import type { StorageDriver } from './storage.js';
import { zeroCopy } from './zero-copy.js';

/** Google Cloud Storage when GCS_BUCKET is set; otherwise files under DATA_DIR/media (see MEDIA_ZERO_COPY). */
export function createStorage(config: Config): StorageDriver {
  if (config.GCS_BUCKET) {
    return new GcsStorage({ bucket: config.GCS_BUCKET, apiEndpoint: config.GCS_API_ENDPOINT, projectId: config.GCS_PROJECT_ID });
  }
  return new LocalStorage(join(config.DATA_DIR, 'media'), '/media', config.MEDIA_ZERO_COPY ? zeroCopy() : null);
}
