import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../db/orm.js';
import { mixPolicy } from '../mixes/index.js';
import { listenPolicy } from './listen.policy.js';
import { type ListenRecord, type ListenRow, listenableMix, toRecord } from './listen.views.js';

export interface MixStats {
  /** Distinct members who listened. */
  listeners: number;
  /** Listens, members' and anonymous. */
  listens: number;
  /** 'h:mm' over listens that have an end. */
  hours: string;
  saves: number;
  plays: number;
}

export function formatHours(totalSeconds: number): string {
  const minutes = Math.floor(totalSeconds / 60);
  return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;
}

/** What a mix's listening adds up to: the stats anyone sees (docs/mix-page.md#stats), and the listen records its owner sees. */
export class ListenStats {
  constructor(private readonly orm: Orm) {}

  private em(): EntityManager {
    return this.orm.em.fork() as EntityManager;
  }

  /** Listeners (distinct members), Listens (count), Hours (h:mm over ended listens), Saves (count) (docs/mix-page.md#stats). */
  async of(mixId: unknown): Promise<MixStats> {
    const em = this.em();
    const { id } = await listenableMix(em, mixId);
    const [row] = await em.execute<{ listeners: string; listens: string; seconds: number | null; saves: string; plays: number }[]>(
      `select (select count(distinct user_id) from listen where mix_id = m.id) as listeners,
              (select count(*) from listen where mix_id = m.id) as listens,
              (select extract(epoch from sum(ended_at - started_at))::float8 from listen where mix_id = m.id and ended_at is not null) as seconds,
              (select count(*) from saved_mix where mix_id = m.id) as saves,
              m.play_count as plays
         from mix m where m.id = ?`,
      [id],
    );
    return {
      listeners: Number(row.listeners),
      listens: Number(row.listens),
      hours: formatHours(row.seconds ?? 0),
      saves: Number(row.saves),
      plays: row.plays,
    };
  }

  /**
   * The listen records (REST `listeners`) of a mix the viewer has opened (a draft too), when they may see them (it is
   * theirs); otherwise null.
   */
  async recordsIfOwner(mix: { id: string; ownerId: string }, viewerId: string | null): Promise<ListenRecord[] | null> {
    return mixPolicy.seesAudience(viewerId, mix.ownerId) ? this.recordsOf(this.em(), mix.id) : null;
  }

  /** The listen records (REST `listeners`), newest first: for the mix's owner only. */
  async records(mixId: unknown, viewerId: string): Promise<ListenRecord[]> {
    const em = this.em();
    const { id } = await listenableMix(em, mixId);
    const [owner] = await em.execute<{ owner_id: string }[]>('select owner_id from mix where id = ?', [id]);
    listenPolicy.assertCanSeeRecords(owner.owner_id, viewerId);
    return this.recordsOf(em, id);
  }

  private async recordsOf(em: EntityManager, mixId: string): Promise<ListenRecord[]> {
    const rows = await em.execute<ListenRow[]>(
      `select l.id, l.user_id, u.user_name, l.started_at, l.ended_at
         from listen l left join app_user u on u.id = l.user_id
        where l.mix_id = ? order by l.started_at desc limit 1000`,
      [mixId],
    );
    return rows.map(toRecord);
  }
}
