import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../db/orm.js';
import { wholeKm } from '../../shared/geo.js';
import { parseInput } from '../../shared/inputs.js';
import { named } from '../../shared/sql.js';
import { MIX_COLUMNS, type MixRow, type MixView, mixPolicy, mixViewOfRow, VISIBLE_MIX_SQL, WITH_OWNER } from '../mixes/index.js';
import { forYouInput } from './recommendation.inputs.js';
import {
  FINISHED_LISTEN_SQL,
  NEAR_SCALE_KM,
  NEW_FROM_FOLLOWED_DAYS,
  POPULAR_DAYS,
  RECOMMENDABLE_SQL,
  type Reason,
  type ReasonKind,
  reasonText,
  UNKNOWN_DISTANCE_KM,
} from './recommendation.policy.js';

/**
 * The bounds that keep the one statement's work fixed whatever the catalogue's size: each is a `limit` on an index
 * walk, so a row reads at most about seeds × neighbours × per-neighbour entries, plus the sample of recent listens.
 */
export const BOUNDS = {
  /** The viewer's most recent saves and finishes that seed the co-listening part. */
  seeds: 30,
  /** Per seed, the most recent other members who saved it, and as many who finished it. */
  neighbours: 30,
  /** Per neighbour (each read once, however many seeds they share), their most recent saves, and as many finishes. */
  perNeighbour: 30,
  /** Candidates kept (by co-occurrence) before weighing by popularity, and popular mixes kept before exclusions. */
  candidates: 200,
  /** "Popular" counts at most this many of the week's most recent listens. */
  popularSample: 10_000,
} as const;

export interface Recommendation {
  mix: MixView;
  /** Whole km from the viewer's cell (null when either place is unknown). */
  distanceKm: number | null;
  reason: Reason & { text: string };
  /** The mix the reason names (saved, finished), else null. */
  relatedMixId: string | null;
}

interface RecommendationRow extends MixRow {
  reason: ReasonKind;
  related_id: string | null;
  related_title: string | null;
  distance_m: number | null;
}

const finished = FINISHED_LISTEN_SQL;

/**
 * The "For you" row in one statement (docs/home-feed.md#for-you): new mixes of followed members first, then mixes that
 * members who saved or finished the same mixes as the viewer saved or finished (item to item, cosine-weighted), then
 * the week's listens weighted by distance from the viewer's cell. Never the viewer's own mixes, nor ones they saved or
 * finished; only mixes anyone may see.
 */
export const FOR_YOU_SQL = `
with me as materialized (
  select u.cell_geo as earth from app_user u where u.id = :viewer::uuid
),
saved_by_me as materialized (
  select s.mix_id, s.saved_at as happened_at from saved_mix s where s.user_id = :viewer::uuid
),
finished_by_me as materialized (
  select l.mix_id, max(l.ended_at) as happened_at
    from listen l join mix fm on fm.id = l.mix_id
   where l.user_id = :viewer::uuid and ${finished('l', 'fm')}
   group by l.mix_id
),
seeds as materialized (
  select distinct on (k.mix_id) k.mix_id as seed_id, k.kind, k.happened_at, sm.title as seed_title
    from (select mix_id, 'saved' as kind, happened_at from saved_by_me
          union all select mix_id, 'finished', happened_at from finished_by_me) k
    join mix sm on sm.id = k.mix_id and ${VISIBLE_MIX_SQL}
   order by k.mix_id, k.kind = 'saved' desc
),
recent_seeds as materialized (
  select * from seeds order by happened_at desc limit :seeds
),
neighbours as materialized (
  select distinct sd.seed_id, o.user_id as neighbour
    from recent_seeds sd cross join lateral (
      (select s.user_id from saved_mix s where s.mix_id = sd.seed_id and s.user_id <> :viewer::uuid
        order by s.saved_at desc limit :neighbours)
      union all
      (select l.user_id from listen l join mix lm on lm.id = l.mix_id
        where l.mix_id = sd.seed_id and l.user_id <> :viewer::uuid and ${finished('l', 'lm')}
        order by l.ended_at desc limit :neighbours)) o
),
seed_sizes as materialized (
  select seed_id, 1 + count(*) as engaged from neighbours group by seed_id
),
neighbour_items as materialized (
  select n.neighbour, x.mix_id
    from (select distinct neighbour from neighbours) n cross join lateral (
      (select s.mix_id from saved_mix s where s.user_id = n.neighbour order by s.saved_at desc limit :perNeighbour)
      union
      (select l.mix_id from listen l join mix lm on lm.id = l.mix_id
        where l.user_id = n.neighbour and ${finished('l', 'lm')} order by l.ended_at desc limit :perNeighbour)) x
),
co as materialized (
  select n.seed_id, i.mix_id as candidate, count(*)::float8 as together
    from neighbours n join neighbour_items i on i.neighbour = n.neighbour and i.mix_id <> n.seed_id
   group by n.seed_id, i.mix_id
),
top_candidates as materialized (
  select candidate from co group by candidate order by sum(together) desc, candidate limit :candidates
),
candidate_sizes as materialized (
  select t.candidate, 1
         + (select count(*) from (select 1 from saved_mix s where s.mix_id = t.candidate limit 1000) saves)
         + (select count(*) from (select 1 from listen l where l.mix_id = t.candidate limit 1000) plays) / 4.0
         as engaged
    from top_candidates t
),
co_ranked as materialized (
  select distinct on (c.candidate) c.candidate as mix_id, sd.kind as reason, sd.seed_id as related_id,
         sd.seed_title as related_title,
         sum(c.together / sqrt(ss.engaged * cs.engaged)) over (partition by c.candidate) as score
    from co c
    join candidate_sizes cs on cs.candidate = c.candidate
    join seed_sizes ss on ss.seed_id = c.seed_id
    join recent_seeds sd on sd.seed_id = c.seed_id
   order by c.candidate, c.together / sqrt(ss.engaged * cs.engaged) desc, sd.happened_at desc
),
followed as materialized (
  select fm.id as mix_id, extract(epoch from fm.published_at) as score
    from follow f cross join lateral (
      select id, published_at from mix
       where owner_id = f.followee_id and ${VISIBLE_MIX_SQL}
         and published_at > now() - make_interval(days => :newDays)
       order by published_at desc limit :first) fm
   where f.follower_id = :viewer::uuid
),
recent_listens as materialized (
  select l.mix_id from listen l where l.started_at > now() - make_interval(days => :popularDays)
   order by l.started_at desc limit :popularSample
),
popular as materialized (
  select p.mix_id,
         p.listens / (1 + coalesce(round(earth_distance((select earth from me), pm.geo) / 1000), :unknownKm) / :nearScale) as score
    from (select mix_id, count(*)::float8 as listens from recent_listens group by mix_id) p
    join mix pm on pm.id = p.mix_id
   order by score desc, p.mix_id limit :candidates
),
ranked as (
  select mix_id, 0 as tier, 'new_from_followed' as reason, null::uuid as related_id, null::text as related_title, score
    from followed
  union all
  select mix_id, 1, reason, related_id, related_title, score from co_ranked
  union all
  select mix_id, 2, case when (select earth from me) is null then 'popular' else 'popular_near_you' end, null, null, score
    from popular
),
chosen as materialized (
  select distinct on (r.mix_id) r.mix_id, r.tier, r.reason, r.related_id, r.related_title, r.score
    from ranked r join mix on mix.id = r.mix_id and ${RECOMMENDABLE_SQL}
   where not exists (select 1 from saved_by_me s where s.mix_id = r.mix_id)
     and not exists (select 1 from finished_by_me f where f.mix_id = r.mix_id)
   order by r.mix_id, r.tier, r.score desc
),
page as materialized (
  select * from chosen order by tier, score desc, mix_id limit :first
)
select ${MIX_COLUMNS}, page.reason, page.related_id, page.related_title,
       earth_distance((select earth from me), m.geo) as distance_m
  from page join mix m on m.id = page.mix_id ${WITH_OWNER}
 order by page.tier, page.score desc, page.mix_id`;

/** The parameters of FOR_YOU_SQL for a viewer (null: a visitor) and a row size. */
export const forYouParams = (viewerId: string | null, first: number) => ({
  viewer: viewerId,
  first,
  seeds: BOUNDS.seeds,
  neighbours: BOUNDS.neighbours,
  perNeighbour: BOUNDS.perNeighbour,
  candidates: BOUNDS.candidates,
  popularSample: BOUNDS.popularSample,
  newDays: NEW_FROM_FOLLOWED_DAYS,
  popularDays: POPULAR_DAYS,
  unknownKm: UNKNOWN_DISTANCE_KM,
  nearScale: NEAR_SCALE_KM,
});

/** The "For you" row (docs/home-feed.md#for-you); the rules are the policy's, the one statement is FOR_YOU_SQL. */
export class RecommendationsService {
  constructor(private readonly orm: Orm) {}

  private em(): EntityManager {
    return this.orm.em.fork() as EntityManager;
  }

  /** Anyone may ask: a visitor (null) gets the week's most listened mixes everywhere. */
  async forYou(viewerId: string | null, raw: { first?: unknown }): Promise<Recommendation[]> {
    const { first } = parseInput(forYouInput, raw);
    const em = this.em();
    const rows = await em.execute<RecommendationRow[]>(...named(FOR_YOU_SQL, forYouParams(viewerId, first)));
    return rows.map((row) => {
      const mix = mixViewOfRow(row);
      const reason: Reason = {
        kind: row.reason,
        relatedMixTitle: row.related_title,
        relatedMemberName: row.reason === 'new_from_followed' ? ((mix.owner.displayName || mix.owner.userName) ?? null) : null,
      };
      return {
        mix,
        distanceKm: mixPolicy.distanceShown(viewerId, mix.owner.id, wholeKm(row.distance_m)),
        reason: { ...reason, text: reasonText(reason) },
        relatedMixId: row.related_id,
      };
    });
  }
}
