import { defineEntity, p } from '@mikro-orm/core';

/**
 * How many published, active mixes of a genre stop being hosted in a (UTC) week, named by its Monday ('infinity':
 * never). Maintained by `mix_feed_tally_trigger` on `mix` (see Migration20261123000000_mix_feed); the feed sums it to
 * count mixes everywhere. Only SQL reads it.
 */
export const MixFeedTally = defineEntity({
  name: 'MixFeedTally',
  tableName: 'mix_feed_tally',
  properties: {
    expiresWeek: p.string().columnType('date').primary(),
    genre: p.string().length(32).primary(),
    mixes: p.integer(),
  },
});
