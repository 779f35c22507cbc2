import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../../db/orm.js';
import type { Creator } from '../../tracks/index.js';
import { RewardAllocation, RewardAllocationTrack } from '../payment.entity.js';
import { countedProviderSql, paymentPolicy } from '../payment.policy.js';
import { allocateSubscriber, creatorKey, type ListenedMix } from '../rewards.js';

/** The ledger's period of a paid period: the month (UTC) it started in. */
export const periodOf = (start: Date) => start.toISOString().slice(0, 7);

interface RewardLine {
  id: string;
  subscriptionPayment: string;
  period: string;
  creatorKey: string | null;
  creatorName: string | null;
  amountCents: number;
  listenedSeconds: number;
  createdAt: Date;
}

interface RewardTrackLine {
  id: string;
  allocation: string;
  track: string;
  trackTitle: string;
  amountCents: number;
  listenedSeconds: number;
}

interface UnsettledRow {
  id: string;
  amount_cents: number;
  period_start: Date;
  period_end: Date;
  user_id: string;
}

/**
 * Writes the rewards ledger for every subscription payment whose paid period is over (`periodEnd <= now`) and has not
 * been settled: 70% of it (see paymentPolicy.creatorsShareCents) to the creators of what that subscriber listened to in
 * the period (see rewards.ts), or, when they listened to nothing that counts, one unallocated line for the whole 70%,
 * which mixcrate keeps (it is not spread over other subscribers' creators: that would be the pro-rata pool the
 * user-centric split replaces). One payment per transaction, its row locked (SKIP LOCKED: several processes share the
 * work, none settles a payment twice). Returns how many payments it settled.
 */
export async function settleRewards(orm: Orm, now: Date, testModeCounts: boolean, limit = 1000): Promise<number> {
  let settled = 0;
  while (settled < limit) {
    const done = await orm.em.fork().transactional(async (txEm) => settleOne(txEm as EntityManager, now, testModeCounts));
    if (!done) break;
    settled += 1;
  }
  return settled;
}

async function settleOne(em: EntityManager, now: Date, testModeCounts: boolean): Promise<boolean> {
  const [payment] = await em.execute<UnsettledRow[]>(
    `select p.id, p.amount_cents, p.period_start, p.period_end, s.user_id
       from subscription_payment p join subscription s on s.id = p.subscription_id
      where p.rewards_settled_at is null and p.period_end <= ? and ${countedProviderSql('s', testModeCounts)}
      order by p.period_end, p.id limit 1 for update of p skip locked`,
    [now],
  );
  if (!payment) return false;
  const periodStart = new Date(payment.period_start);
  const pool = paymentPolicy.creatorsShareCents(payment.amount_cents);
  const { listens, titles } = await listensOf(em, payment.user_id, periodStart, new Date(payment.period_end));
  const shares = allocateSubscriber(pool, listens);
  const period = periodOf(periodStart);
  const trackLines: RewardTrackLine[] = [];
  const lines: RewardLine[] = shares.map((share) => {
    const id = randomUUID();
    for (const track of share.tracks)
      trackLines.push({
        id: randomUUID(),
        allocation: id,
        track: track.trackId,
        trackTitle: titles.get(track.trackId) ?? '',
        amountCents: track.cents,
        listenedSeconds: track.seconds,
      });
    return {
      id,
      subscriptionPayment: payment.id,
      period,
      creatorKey: share.key.slice(0, 255),
      creatorName: share.name.slice(0, 255),
      amountCents: share.cents,
      listenedSeconds: share.seconds,
      createdAt: now,
    };
  });
  if (lines.length === 0 && pool > 0)
    lines.push({
      id: randomUUID(),
      subscriptionPayment: payment.id,
      period,
      creatorKey: null,
      creatorName: null,
      amountCents: pool,
      listenedSeconds: 0,
      createdAt: now,
    });
  // One statement for the payment's lines, one for their tracks, in the transaction that marks the payment settled.
  if (lines.length > 0) await em.insertMany(RewardAllocation, lines);
  if (trackLines.length > 0) await em.insertMany(RewardAllocationTrack, trackLines);
  await em.execute('update subscription_payment set rewards_settled_at = ? where id = ?', [now, payment.id]);
  return true;
}

/**
 * The subscriber's ended listens that started in the period, each with its mix's duration and the tracklist version in
 * force when it started: the tracks it was heard with, never the tracklist as it is now (docs/payments.md#tracklist-versions).
 * A listen that names no version (written by no path since versions exist) is read against the version in force at
 * its start, version 1 being in force from the mix's publishing.
 */
async function listensOf(
  em: EntityManager,
  userId: string,
  from: Date,
  to: Date,
): Promise<{ listens: ListenedMix[]; titles: Map<string, string> }> {
  const listens = await em.execute<{ version_id: string | null; seconds: number; duration_seconds: number | null }[]>(
    `select coalesce(l.tracklist_version_id,
                     (select v.id from tracklist_version v where v.mix_id = l.mix_id and v.created_at <= l.started_at
                       order by v.number desc limit 1),
                     (select v.id from tracklist_version v where v.mix_id = l.mix_id and v.number = 1)) as version_id,
            extract(epoch from (l.ended_at - l.started_at))::float8 as seconds, m.duration_seconds
       from listen l join mix m on m.id = l.mix_id
      where l.user_id = ? and l.started_at >= ? and l.started_at < ? and l.ended_at is not null`,
    [userId, from, to],
  );
  if (listens.length === 0) return { listens: [], titles: new Map() };
  const versionIds = [...new Set(listens.flatMap((listen) => (listen.version_id ? [listen.version_id] : [])))];
  const entries =
    versionIds.length === 0
      ? []
      : await em.execute<
          { version_id: string; track_id: string; title: string; start_time: number | null; end_time: number | null; creators: Creator[] }[]
        >(
          `select e.version_id, e.track_id, t.title, e.start_time, e.end_time, t.creators
             from tracklist_version_entry e join track t on t.id = e.track_id
            where e.version_id in (?) order by e.version_id, e.position`,
          [versionIds],
        );
  const tracklists = new Map<string, ListenedMix['tracklist']>();
  const titles = new Map<string, string>();
  for (const entry of entries) {
    titles.set(entry.track_id, entry.title);
    const list = tracklists.get(entry.version_id) ?? [];
    list.push({
      trackId: entry.track_id,
      creators: (Array.isArray(entry.creators) ? entry.creators : [])
        .filter((creator) => creator?.name)
        .map((creator) => ({ key: creatorKey(creator), name: creator.name })),
      startTime: entry.start_time,
      endTime: entry.end_time,
    });
    tracklists.set(entry.version_id, list);
  }
  return {
    titles,
    listens: listens.map((listen) => ({
      seconds: Number(listen.seconds),
      durationSeconds: listen.duration_seconds,
      tracklist: (listen.version_id && tracklists.get(listen.version_id)) || [],
    })),
  };
}
