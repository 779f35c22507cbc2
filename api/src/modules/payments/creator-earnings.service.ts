import { parseInput } from '../../shared/inputs.js';
import { earningsPolicy } from './earnings.policy.js';
import { csvField } from './earnings.service.js';
import { creatorTracksInput } from './payment.inputs.js';
import type { PaymentsContext } from './payments-context.js';
import type { CreatorHolders } from './payouts.service.js';

export interface CreatorMonthView {
  period: string;
  creatorKey: string;
  creatorName: string;
  amountCents: number;
  listenedSeconds: number;
  subscribers: number;
  /** Of the amount, what a payout has already paid (its transfer named). */
  paidCents: number;
  /** The month's amount per track; they add up to exactly `amountCents`. */
  tracks: CreatorTrackView[];
}

/**
 * One track's part of a creator name's month. A line settled before per-track lines were recorded reads as one line
 * with no track (`trackId` and `title` null) for its whole amount, so a month's tracks still add up to its amount.
 */
export interface CreatorTrackView {
  period: string;
  creatorKey: string;
  creatorName: string;
  trackId: string | null;
  /** The title the track had when the month was settled. */
  title: string | null;
  amountCents: number;
  listenedSeconds: number;
  subscribers: number;
  paidCents: number;
}

export interface CreatorPayoutView {
  period: string;
  amountCents: number;
  status: string;
  transferRef: string | null;
  paidAt: Date | null;
}

export interface CreatorEarningsView {
  months: CreatorMonthView[];
  totalCents: number;
  paidCents: number;
  /** Settled and not yet paid: what the next payout run pays when it reaches the minimum. */
  balanceCents: number;
  payouts: CreatorPayoutView[];
}

export interface PublicMonthView {
  period: string;
  /** 70% of the month's settled subscription revenue. */
  creatorsCents: number;
  paidOutCents: number;
  /** Earned by creators nobody has claimed yet: held until a member is verified for them. */
  waitingCents: number;
}

/** Seconds as the ledger sums them, to the millisecond. */
const seconds = (value: number | string) => Math.round(Number(value) * 1000) / 1000;

/**
 * A verified creator's own side of the ledger (docs/creators.md#earnings): their lines per month and name, their CSV,
 * their payouts; and the public page's per-month aggregates, which name no creator and no subscriber.
 */
export class CreatorEarningsService {
  constructor(
    private readonly context: PaymentsContext,
    private readonly holders: CreatorHolders,
  ) {}

  private async keysOf(viewerId: string): Promise<string[]> {
    const keys = await this.holders.creatorKeysOf(viewerId);
    earningsPolicy.assertCreator(keys);
    return keys;
  }

  async mine(viewerId: string): Promise<CreatorEarningsView> {
    const keys = await this.keysOf(viewerId);
    const em = this.context.em();
    const rows = await em.execute<
      { period: string; creator_key: string; creator_name: string; cents: string; seconds: number; subscribers: string; paid: string }[]
    >(
      `select a.period, a.creator_key, max(a.creator_name) as creator_name, sum(a.amount_cents) as cents,
              sum(a.listened_seconds) as seconds, count(distinct s.user_id) as subscribers,
              coalesce(sum(a.amount_cents) filter (where po.status = 'paid'), 0) as paid
         from reward_allocation a
         join subscription_payment p on p.id = a.subscription_payment_id
         join subscription s on s.id = p.subscription_id
         left join payout po on po.id = a.payout_id
        where a.creator_key in (?)
        group by a.period, a.creator_key
        order by a.period desc, a.creator_key
        limit 1200`,
      [keys],
    );
    const tracks = new Map<string, CreatorTrackView[]>();
    for (const track of await this.trackLines(keys, null)) {
      const ref = `${track.period}/${track.creatorKey}`;
      tracks.set(ref, [...(tracks.get(ref) ?? []), track]);
    }
    const months = rows.map((row) => ({
      period: row.period,
      creatorKey: row.creator_key,
      creatorName: row.creator_name,
      amountCents: Number(row.cents),
      listenedSeconds: seconds(row.seconds),
      subscribers: Number(row.subscribers),
      paidCents: Number(row.paid),
      tracks: tracks.get(`${row.period}/${row.creator_key}`) ?? [],
    }));
    const payouts = await em.execute<
      { period: string; amount_cents: number; status: string; transfer_ref: string | null; paid_at: Date | null }[]
    >('select period, amount_cents, status, transfer_ref, paid_at from payout where user_id = ? order by period desc limit 120', [
      viewerId,
    ]);
    const totalCents = months.reduce((sum, month) => sum + month.amountCents, 0);
    const paidCents = months.reduce((sum, month) => sum + month.paidCents, 0);
    const [unpaid] = await em.execute<{ cents: string | null }[]>(
      'select sum(amount_cents) as cents from reward_allocation where creator_key in (?) and payout_id is null',
      [keys],
    );
    return {
      months,
      totalCents,
      paidCents,
      balanceCents: Number(unpaid?.cents ?? 0),
      payouts: payouts.map((row) => ({
        period: row.period,
        amountCents: row.amount_cents,
        status: row.status,
        transferRef: row.transfer_ref,
        paidAt: row.paid_at ? new Date(row.paid_at) : null,
      })),
    };
  }

  /** The creator's per-track lines, of one month or of all (newest month first, largest amount first). */
  async tracks(viewerId: string, raw: { period?: unknown }): Promise<CreatorTrackView[]> {
    const keys = await this.keysOf(viewerId);
    return this.trackLines(keys, parseInput(creatorTracksInput, raw).period);
  }

  private async trackLines(keys: string[], period: string | null): Promise<CreatorTrackView[]> {
    const rows = await this.context.em().execute<
      {
        period: string;
        creator_key: string;
        creator_name: string;
        track_id: string | null;
        title: string | null;
        cents: string;
        seconds: number;
        subscribers: string;
        paid: string;
      }[]
    >(
      // A line without track lines (settled before they were recorded) counts whole, as one line with no track.
      `select a.period, a.creator_key, max(a.creator_name) as creator_name, rt.track_id, max(rt.track_title) as title,
              sum(coalesce(rt.amount_cents, a.amount_cents)) as cents,
              sum(coalesce(rt.listened_seconds, a.listened_seconds)) as seconds, count(distinct s.user_id) as subscribers,
              coalesce(sum(coalesce(rt.amount_cents, a.amount_cents)) filter (where po.status = 'paid'), 0) as paid
         from reward_allocation a
         left join reward_allocation_track rt on rt.allocation_id = a.id
         join subscription_payment p on p.id = a.subscription_payment_id
         join subscription s on s.id = p.subscription_id
         left join payout po on po.id = a.payout_id
        where a.creator_key in (?) and (?::text is null or a.period = ?)
        group by a.period, a.creator_key, rt.track_id, case when rt.track_id is null then rt.track_title end
        order by a.period desc, a.creator_key, cents desc, title nulls last
        limit 20000`,
      [keys, period, period],
    );
    return rows.map((row) => ({
      period: row.period,
      creatorKey: row.creator_key,
      creatorName: row.creator_name,
      trackId: row.track_id,
      title: row.title,
      amountCents: Number(row.cents),
      listenedSeconds: seconds(row.seconds),
      subscribers: Number(row.subscribers),
      paidCents: Number(row.paid),
    }));
  }

  /** The creator's own lines as CSV: one row per month, name and track (a month's rows add up to its amount). */
  async csv(viewerId: string): Promise<string> {
    const keys = await this.keysOf(viewerId);
    const lines = [
      ['period', 'creator_key', 'creator_name', 'track_id', 'track_title', 'amount_cents', 'listened_seconds', 'subscribers', 'paid_cents'],
    ];
    for (const track of await this.trackLines(keys, null))
      lines.push([
        track.period,
        track.creatorKey,
        track.creatorName,
        track.trackId ?? '',
        track.title ?? '',
        String(track.amountCents),
        String(track.listenedSeconds),
        String(track.subscribers),
        String(track.paidCents),
      ]);
    return `${lines.map((line) => line.map(csvField).join(',')).join('\r\n')}\r\n`;
  }

  /** Per month: the creators' 70%, what payouts paid of it, and what waits for creators to claim it. Anyone may read it. */
  async publicMonths(): Promise<PublicMonthView[]> {
    const rows = await this.context.em().execute<{ period: string; creators: string; paid: string; waiting: string }[]>(
      `select a.period, sum(a.amount_cents) as creators,
              coalesce(sum(a.amount_cents) filter (where po.status = 'paid'), 0) as paid,
              coalesce(sum(a.amount_cents) filter (where a.creator_key is not null and not exists (
                select 1 from creator_claim c where c.subject = 'creator' and c.subject_key = a.creator_key and c.status = 'approved')), 0) as waiting
         from reward_allocation a left join payout po on po.id = a.payout_id
        group by a.period order by a.period desc limit 120`,
    );
    return rows.map((row) => ({
      period: row.period,
      creatorsCents: Number(row.creators),
      paidOutCents: Number(row.paid),
      waitingCents: Number(row.waiting),
    }));
  }
}
