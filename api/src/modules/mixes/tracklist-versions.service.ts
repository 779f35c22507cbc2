import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../db/orm.js';
import { parseInput } from '../../shared/inputs.js';
import type { MixTrackView, TracksService } from '../tracks/index.js';
import { MixErrors } from './mix.errors.js';
import { tracklistVersionsInput } from './mix.inputs.js';
import { mixPolicy } from './mix.policy.js';

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
    const [mix] = await this.em().execute<
      { owner_id: string; status: 'draft' | 'published'; deactivated: boolean; expires_at: Date | string | null }[]
    >('select owner_id, status, deactivated_at is not null as deactivated, expires_at from mix where id = ?', [mixId]);
    const facts = mix && {
      ownerId: mix.owner_id,
      status: mix.status,
      deactivated: mix.deactivated,
      expiresAt: mix.expires_at ? new Date(mix.expires_at) : null,
    };
    if (!facts || !mixPolicy.canOpen(facts, viewerId)) throw MixErrors.notFound();
    if (!mixPolicy.seesTracklistVersions(viewerId, facts.ownerId)) throw MixErrors.versionsNotYours();
    return this.read(mixId, first);
  }

  /** The GraphQL field on a mix already in hand: its versions for its owner, null for anyone else. */
  async forViewer(
    viewerId: string | null,
    mix: { id: string; ownerId: string },
    rawFirst: unknown,
  ): Promise<TracklistVersionView[] | null> {
    const { first } = parseInput(tracklistVersionsInput, { mixId: mix.id, first: rawFirst });
    if (!mixPolicy.seesTracklistVersions(viewerId, mix.ownerId)) return null;
    return this.read(mix.id, first);
  }

  /** Newest first: the versions in one statement, their entries and tracks in another. */
  private async read(mixId: string, first: number): Promise<TracklistVersionView[]> {
    const rows = await this.em().execute<{ id: string; number: number; created_at: Date | string }[]>(
      'select id, number, created_at from tracklist_version where mix_id = ? order by number desc limit ?',
      [mixId, first],
    );
    const entries = await this.tracks.versionEntriesOf(rows.map((row) => row.id));
    return rows.map((row) => ({ id: row.id, number: row.number, createdAt: new Date(row.created_at), entries: entries.get(row.id) ?? [] }));
  }
}
