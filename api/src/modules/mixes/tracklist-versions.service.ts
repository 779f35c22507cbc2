import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../db/orm.js';
import { parseInput } from '../../shared/inputs.js';
import { named } from '../../shared/sql.js';
import type { MixTrackView, TracksService } from '../tracks/index.js';
import { MixErrors } from './mix.errors.js';
import { tracklistVersionsInput } from './mix.inputs.js';
import { mixPolicy, OPENABLE_BY_VIEWER_SQL } from './mix.policy.js';

/** One version of a published mix's tracklist: its number (from 1), when it came into force, and its entries in order. */
export interface TracklistVersionView {
  id: string;
  number: number;
  createdAt: Date;
  entries: MixTrackView[];
}

/**
 * Reading a mix's tracklist versions, for its owner only (docs/payments.md#tracklist-versions). The versions are
 * written by the set-tracklist command and by publishing (commands/tracklist-versions.ts).
 */
export class TracklistVersionsService {
  constructor(
    private readonly orm: Orm,
    private readonly tracks: Pick<TracksService, 'versionEntriesOf'>,
  ) {}

  private em(): EntityManager {
    return this.orm.em.fork() as EntityManager;
  }

  /**
   * The REST read: a mix the viewer cannot open is a 404 (a draft's id says nothing to others); one they can open
   * but do not own is a 403.
   */
  async ofMix(viewerId: string, raw: { mixId: unknown; first?: unknown }): Promise<TracklistVersionView[]> {
    const { mixId, first } = parseInput(tracklistVersionsInput, raw);
    if (!mixId) throw MixErrors.notFound();
    const [mix] = await this.em().execute<{ owner_id: string }[]>(
      ...named(`select owner_id from mix where id = :mixId and ${OPENABLE_BY_VIEWER_SQL}`, { mixId, viewer: viewerId }),
    );
    if (!mix) throw MixErrors.notFound();
    if (!mixPolicy.seesTracklistVersions(viewerId, mix.owner_id)) throw MixErrors.versionsNotYours();
    return (await this.read([mixId], first)).get(mixId) ?? [];
  }

  /**
   * The GraphQL field: the versions of the given mixes, those the viewer owns only (`ownerId` is each mix's owner, in
   * hand), in one statement for the versions and one for their entries however many mixes (a request's loader batches).
   */
  async ofMixes(
    viewerId: string | null,
    mixes: readonly { id: string; ownerId: string }[],
    rawFirst: unknown,
  ): Promise<Map<string, TracklistVersionView[] | null>> {
    const { first } = parseInput(tracklistVersionsInput, { mixId: null, first: rawFirst });
    const seen = mixes.filter((mix) => mixPolicy.seesTracklistVersions(viewerId, mix.ownerId)).map((mix) => mix.id);
    const read = await this.read(seen, first);
    return new Map(mixes.map((mix) => [mix.id, seen.includes(mix.id) ? (read.get(mix.id) ?? []) : null]));
  }

  /** Each mix's newest `first` versions, newest first, with their entries in order. */
  private async read(mixIds: readonly string[], first: number): Promise<Map<string, TracklistVersionView[]>> {
    const byMix = new Map<string, TracklistVersionView[]>(mixIds.map((id) => [id, []]));
    if (mixIds.length === 0) return byMix;
    const rows = await this.em().execute<{ id: string; mix_id: string; number: number; created_at: Date | string }[]>(
      `select id, mix_id, number, created_at from (
         select v.*, row_number() over (partition by v.mix_id order by v.number desc) as rank
           from tracklist_version v where v.mix_id in (?)) ranked
        where rank <= ? order by mix_id, number desc`,
      [[...mixIds], first],
    );
    const entries = await this.tracks.versionEntriesOf(rows.map((row) => row.id));
    for (const row of rows)
      byMix
        .get(row.mix_id)
        ?.push({ id: row.id, number: row.number, createdAt: new Date(row.created_at), entries: entries.get(row.id) ?? [] });
    return byMix;
  }
}
