import { Migration20261122000000_init } from './Migration20261122000000_init.js';

/** Every migration, in order. Listed explicitly so discovery does not depend on file globs or the build tool. */
export const migrations = [{ name: 'Migration20261122000000_init', class: Migration20261122000000_init }];
