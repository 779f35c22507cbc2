import { randomUUID } from 'node:crypto';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { User } from '../users/user.entity.js';

export const MIX_STATUSES = ['draft', 'published'] as const;
export const WAVEFORM_STATES = ['pending', 'ready', 'failed'] as const;

export const Mix = defineEntity({
  name: 'Mix',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    owner: () => p.manyToOne(User).deleteRule('cascade').index('mix_owner_idx'),
    title: p.string().length(200),
    genre: p.string().length(32),
    cover: p.string().length(120),
    mp3: p.string().length(120),
    audioBytes: p.bigint('number').default(0),
    durationSeconds: p.double().$type<number>().runtimeType('number').nullable(),
    bitrate: p.integer().nullable(),
    peaks: p.json<number[]>().nullable(),
    waveformState: p.enum(WAVEFORM_STATES).default('pending'),
    // Where the mix was made: the uploader's location when it was created.
    latitude: p.double().$type<number>().runtimeType('number').nullable(),
    longitude: p.double().$type<number>().runtimeType('number').nullable(),
    status: p.enum(MIX_STATUSES).default('draft'),
    publishedAt: p.datetime().nullable(),
    expiresAt: p.datetime().nullable(),
    deactivatedAt: p.datetime().nullable(),
    playCount: p.integer().default(0),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  indexes: [
    { name: 'mix_geo_idx', expression: 'create index "mix_geo_idx" on "mix" using gist (geo_earth("latitude", "longitude"))' },
    {
      name: 'mix_feed_idx',
      expression:
        'create index "mix_feed_idx" on "mix" ("genre", "published_at" desc) where "status" = \'published\' and "deactivated_at" is null',
    },
    {
      name: 'mix_owner_published_idx',
      expression:
        'create index "mix_owner_published_idx" on "mix" ("owner_id", "published_at" desc) where "status" = \'published\' and "deactivated_at" is null',
    },
  ],
});
export type IMix = InferEntity<typeof Mix>;
