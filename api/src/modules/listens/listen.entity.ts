import { randomUUID } from 'node:crypto';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Mix } from '../mixes/mix.entity.js';
import { TracklistVersion } from '../mixes/tracklist-version.entity.js';
import { User } from '../users/user.entity.js';

/**
 * A listen: started, kept alive by its player's heartbeats, and ended when the listener paused or finished. Anonymous
 * listens (shared pages) have no user.
 */
export const Listen = defineEntity({
  name: 'Listen',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    mix: () => p.manyToOne(Mix).deleteRule('cascade').index('listen_mix_idx'),
    user: () => p.manyToOne(User).nullable().deleteRule('set null').index('listen_user_idx'),
    /**
     * The tracklist version in force when the listen started: settlement pays that version's tracks, whatever the
     * tracklist says later (docs/payments.md#tracklist-versions).
     */
    tracklistVersion: () => p.manyToOne(TracklistVersion).nullable().deleteRule('set null'),
    startedAt: p.datetime(),
    endedAt: p.datetime().nullable(),
    /** The listen's last sign of life: its start or its player's latest heartbeat. Live while recent and not ended. */
    aliveAt: p.datetime(),
    /** Whether subscribers were told this listen went silent (so only one process tells them, once). */
    silenceAnnounced: p.boolean().default(false),
  },
  indexes: [
    // The week's most recent listens, for the "For you" row's popular part (docs/home-feed.md#for-you).
    { name: 'listen_recent_idx', expression: 'create index "listen_recent_idx" on "listen" ("started_at" desc) include ("mix_id")' },
    // A mix's listens of the last week, which search ranks by (docs/search.md#ranking).
    { name: 'listen_mix_recent_idx', expression: 'create index "listen_mix_recent_idx" on "listen" ("mix_id", "started_at" desc)' },
    {
      name: 'listen_live_idx',
      expression: 'create index "listen_live_idx" on "listen" ("mix_id", "alive_at") where "ended_at" is null and "user_id" is not null',
    },
    {
      name: 'listen_unannounced_silence_idx',
      expression:
        'create index "listen_unannounced_silence_idx" on "listen" ("alive_at") where "ended_at" is null and "user_id" is not null and not "silence_announced"',
    },
  ],
  uniques: [
    {
      name: 'listen_one_open_per_member',
      expression:
        'create unique index "listen_one_open_per_member" on "listen" ("mix_id", "user_id") where "ended_at" is null and "user_id" is not null',
    },
  ],
});
export type IListen = InferEntity<typeof Listen>;
