import { Migration20261122000000_init } from './Migration20261122000000_init.js';
import { Migration20261123000000_mix_feed } from './Migration20261123000000_mix_feed.js';
import { Migration20261124000000_mix_files } from './Migration20261124000000_mix_files.js';
import { Migration20261125000000_catalogue } from './Migration20261125000000_catalogue.js';
import { Migration20261126000000_staged_files } from './Migration20261126000000_staged_files.js';
import { Migration20261127000000_recognition } from './Migration20261127000000_recognition.js';
import { Migration20261128000000_recognition_freshness } from './Migration20261128000000_recognition_freshness.js';
import { Migration20261129000000_realtime } from './Migration20261129000000_realtime.js';
import { Migration20261130000000_payments } from './Migration20261130000000_payments.js';
import { Migration20261201000000_rate_limits } from './Migration20261201000000_rate_limits.js';
import { Migration20261202000000_resumable_uploads } from './Migration20261202000000_resumable_uploads.js';
import { Migration20261203000000_members_removed } from './Migration20261203000000_members_removed.js';
import { Migration20261204000000_location_cells } from './Migration20261204000000_location_cells.js';
import { Migration20261205000000_sessions } from './Migration20261205000000_sessions.js';
import { Migration20261210000000_member_roles } from './Migration20261210000000_member_roles.js';
import { Migration20261220000000_moderation_claims } from './Migration20261220000000_moderation_claims.js';
import { Migration20261220010000_pending_references } from './Migration20261220010000_pending_references.js';
import { Migration20261220020000_payouts } from './Migration20261220020000_payouts.js';
import { Migration20261221000000_tracklist_versions } from './Migration20261221000000_tracklist_versions.js';
import { Migration20261222000000_search } from './Migration20261222000000_search.js';
import { Migration20261223000000_recommendations } from './Migration20261223000000_recommendations.js';
import { Migration20261224000000_trust } from './Migration20261224000000_trust.js';

/** Every migration, in order. Listed explicitly so discovery does not depend on file globs or the build tool. */
export const migrations = [
  { name: 'Migration20261122000000_init', class: Migration20261122000000_init },
  { name: 'Migration20261123000000_mix_feed', class: Migration20261123000000_mix_feed },
  { name: 'Migration20261124000000_mix_files', class: Migration20261124000000_mix_files },
  { name: 'Migration20261125000000_catalogue', class: Migration20261125000000_catalogue },
  { name: 'Migration20261126000000_staged_files', class: Migration20261126000000_staged_files },
  { name: 'Migration20261127000000_recognition', class: Migration20261127000000_recognition },
  { name: 'Migration20261128000000_recognition_freshness', class: Migration20261128000000_recognition_freshness },
  { name: 'Migration20261129000000_realtime', class: Migration20261129000000_realtime },
  { name: 'Migration20261130000000_payments', class: Migration20261130000000_payments },
  { name: 'Migration20261201000000_rate_limits', class: Migration20261201000000_rate_limits },
  { name: 'Migration20261202000000_resumable_uploads', class: Migration20261202000000_resumable_uploads },
  { name: 'Migration20261203000000_members_removed', class: Migration20261203000000_members_removed },
  { name: 'Migration20261204000000_location_cells', class: Migration20261204000000_location_cells },
  { name: 'Migration20261205000000_sessions', class: Migration20261205000000_sessions },
  { name: 'Migration20261210000000_member_roles', class: Migration20261210000000_member_roles },
  { name: 'Migration20261220000000_moderation_claims', class: Migration20261220000000_moderation_claims },
  { name: 'Migration20261220010000_pending_references', class: Migration20261220010000_pending_references },
  { name: 'Migration20261220020000_payouts', class: Migration20261220020000_payouts },
  { name: 'Migration20261221000000_tracklist_versions', class: Migration20261221000000_tracklist_versions },
  { name: 'Migration20261222000000_search', class: Migration20261222000000_search },
  { name: 'Migration20261223000000_recommendations', class: Migration20261223000000_recommendations },
  { name: 'Migration20261224000000_trust', class: Migration20261224000000_trust },
];
