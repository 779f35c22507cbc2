import { randomUUID } from 'node:crypto';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { MIX_TITLE_MAX } from '../../shared/rules.js';
import { User } from '../users/user.entity.js';

export const MIX_STATUSES = ['draft', 'published'] as const;
export const WAVEFORM_STATES = ['pending', 'ready', 'failed'] as const;
/** A moderator's or a rights holder's hold on a mix: hidden (a notice or a moderator, may be restored) or removed (upheld). */
export const MIX_MODERATION_STATES = ['hidden', 'removed'] as const;

// The feed's partial indexes cover published, active mixes; expiry, the moderation hold and the owner's suspension
// are checked from included columns, so the feed's walks and counts are index-only scans.
const VISIBLE = `where "status" = 'published' and "deactivated_at" is null`;
const HIDDEN = '"moderation_state", "owner_suspended_until"';

export const Mix = defineEntity({
  name: 'Mix',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    owner: () => p.manyToOne(User).deleteRule('cascade').index('mix_owner_idx'),
    title: p.string().length(MIX_TITLE_MAX),
    genre: p.string().length(32),
    cover: p.string().length(120),
    mp3: p.string().length(120),
    audioBytes: p.bigint('number').default(0),
    durationSeconds: p.double().$type<number>().runtimeType('number').nullable(),
    bitrate: p.integer().nullable(),
    // About 1,800 numbers: loaded only when asked for, so lists of mixes stay light.
    peaks: p.json<number[]>().nullable().lazy(),
    waveformState: p.enum(WAVEFORM_STATES).default('pending'),
    // Where the mix was made: the uploader's location when it was created, as others see it (the centre of its ~2 km
    // cell; the mix_location_cell trigger snaps whatever is written, so no exact point is ever stored here).
    latitude: p.double().$type<number>().runtimeType('number').nullable(),
    longitude: p.double().$type<number>().runtimeType('number').nullable(),
    // The same place as a point on the earth (cube/earthdistance), computed by PostgreSQL on every write; the feed's
    // radius filters read it from index-only scans. Never loaded or written by the application.
    geo: p.string().columnType('earth').generated('geo_earth(latitude, longitude) stored').nullable().lazy().hidden(),
    status: p.enum(MIX_STATUSES).default('draft'),
    publishedAt: p.datetime().nullable(),
    expiresAt: p.datetime().nullable(),
    deactivatedAt: p.datetime().nullable(),
    // A moderator's or a rights holder's hold on the mix (docs/trust.md#hidden-means-hidden): hidden from everyone but
    // its owner while set; cleared on restore, which leaves every other column as it was.
    moderationState: p.enum(MIX_MODERATION_STATES).nullable(),
    moderationReason: p.text().nullable(),
    moderatedAt: p.datetime().nullable(),
    // The owner's suspension, copied by triggers (Migration20261227000000_owner_suspension) so whether the mix is hidden
    // is read from its own row (OWNER_SUSPENDED_SQL): null while the owner is not suspended, else when the suspension
    // ends ('infinity' for no end). Never loaded or written by the application.
    ownerSuspendedUntil: p.datetime().nullable().lazy().hidden(),
    playCount: p.integer().default(0),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  indexes: [
    {
      name: 'mix_visible_geo_idx',
      expression: `create index "mix_visible_geo_idx" on "mix" using gist ("geo") include ("expires_at", ${HIDDEN}) ${VISIBLE}`,
    },
    {
      name: 'mix_visible_recent_idx',
      expression: `create index "mix_visible_recent_idx" on "mix" ("published_at" desc, "id" desc) include ("expires_at", "geo", ${HIDDEN}) ${VISIBLE}`,
    },
    {
      name: 'mix_visible_genre_idx',
      expression: `create index "mix_visible_genre_idx" on "mix" ("genre", "published_at" desc, "id" desc) include ("expires_at", "geo", ${HIDDEN}) ${VISIBLE}`,
    },
    { name: 'mix_visible_expiry_idx', expression: `create index "mix_visible_expiry_idx" on "mix" ("expires_at", "genre") ${VISIBLE}` },
    {
      name: 'mix_owner_published_idx',
      expression:
        'create index "mix_owner_published_idx" on "mix" ("owner_id", "published_at" desc) where "status" = \'published\' and "deactivated_at" is null',
    },
    // Media delivery finds a mix by its file name on every request (see Migration20261124000000_mix_files).
    { name: 'mix_mp3_idx', properties: ['mp3'] },
    { name: 'mix_cover_idx', properties: ['cover'] },
    // The few held mixes, which the feed's count takes off its tally (docs/trust.md#hidden-means-hidden).
    { name: 'mix_held_idx', expression: 'create index "mix_held_idx" on "mix" ("genre") where "moderation_state" is not null' },
    // The few mixes of suspended members, which the feed's count takes off its tally too.
    {
      name: 'mix_owner_suspended_idx',
      expression: 'create index "mix_owner_suspended_idx" on "mix" ("genre") where "owner_suspended_until" is not null',
    },
  ],
  triggers: [
    {
      name: 'mix_feed_tally_trigger',
      timing: 'after',
      events: ['insert', 'update', 'delete'],
      // Keeps mix_feed_tally in step with every write (see Migration20261123000000_mix_feed).
      expression:
        'create trigger "mix_feed_tally_trigger" after insert or delete or update of "status", "deactivated_at", "expires_at", "genre" on "mix" for each row execute function mix_feed_tally_apply()',
    },
    {
      name: 'mix_location_cell',
      timing: 'before',
      events: ['insert', 'update'],
      // Snaps the place to its cell before it is stored (see Migration20261204000000_location_cells).
      expression:
        'create trigger "mix_location_cell" before insert or update of "latitude", "longitude" on "mix" for each row execute function mix_location_cell()',
    },
    {
      name: 'mix_owner_suspension',
      timing: 'before',
      events: ['insert', 'update'],
      // Copies the owner's suspension onto the mix (see Migration20261227000000_owner_suspension).
      expression:
        'create trigger "mix_owner_suspension" before insert or update of "owner_id", "owner_suspended_until" on "mix" for each row execute function mix_owner_suspension()',
    },
  ],
});
export type IMix = InferEntity<typeof Mix>;
