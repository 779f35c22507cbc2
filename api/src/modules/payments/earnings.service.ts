import { parseInput } from '../../shared/inputs.js';
import { type RolesService, rolePolicy } from '../roles/index.js';
import { earningsInput, periodInput } from './payment.inputs.js';
import type { PaymentsContext } from './payments-context.js';

export interface CreatorEarningView {
  creatorKey: string;
  creatorName: string;
  amountCents: number;
  listenedSeconds: number;
  subscribers: number;
}

export interface EarningsView {
  period: string;
  paidCents: number;
  creatorsCents: number;
  unallocatedCents: number;
  /** Earned by creators no member is verified for yet: held until one is (docs/creators.md#payouts). */
  unclaimedCents: number;
  /** Paid to verified creators by payouts. */
  paidOutCents: number;
  creatorCount: number;
  creators: CreatorEarningView[];
}

/**
 * The creator rewards ledger, read: its periods, a period's report, and the same as CSV. It tells total subscription
 * revenue and what individual subscribers listened to, so only operators read it (see rolePolicy).
 */
export class EarningsService {
  constructor(
    private readonly context: PaymentsContext,
    private readonly roles: RolesService,
  ) {}

  /** The periods the rewards ledger has lines for, newest first. */
  async periods(viewerId: string): Promise<string[]> {
    await this.assertCanRead(viewerId);
    const rows = await this.context
      .em()
      .execute<{ period: string }[]>('select distinct period from reward_allocation order by period desc limit 240');
    return rows.map((row) => row.period);
  }

  /** The creators' earnings in a period (optionally one creator, by key or name), largest first, with the period's totals. */
  async report(viewerId: string, raw: { period: unknown; creator?: unknown; first?: unknown }): Promise<EarningsView> {
    await this.assertCanRead(viewerId);
    const input = parseInput(earningsInput, { ...raw, first: raw.first ?? undefined });
    return this.read(input.period, input.creator, input.first);
  }

  /** The period's ledger as CSV: one row per creator, then the unallocated row; the amounts add up to the creators' share. */
  async csv(viewerId: string, rawPeriod: unknown): Promise<string> {
    await this.assertCanRead(viewerId);
    const period = parseInput(periodInput, rawPeriod);
    const report = await this.read(period, null, null);
    const lines = [['period', 'creator_key', 'creator_name', 'amount_cents', 'listened_seconds', 'subscribers']];
    for (const creator of report.creators)
      lines.push([
        period,
        creator.creatorKey,
        creator.creatorName,
        String(creator.amountCents),
        String(creator.listenedSeconds),
        String(creator.subscribers),
      ]);
    lines.push([
      period,
      '',
      '(unallocated: subscribers who listened to nothing; kept by mixcrate)',
      String(report.unallocatedCents),
      '0',
      '',
    ]);
    return `${lines.map((line) => line.map(csvField).join(',')).join('\r\n')}\r\n`;
  }

  private async assertCanRead(viewerId: string): Promise<void> {
    rolePolicy.assertCanReadLedger(await this.roles.roleOf(viewerId));
  }

  private async read(period: string, creator: string | null, limit: number | null): Promise<EarningsView> {
    const em = this.context.em();
    const [totals] = await em.execute<
      { paid: string | null; creators: string | null; unallocated: string | null; unclaimed: string | null; paid_out: string | null }[]
    >(
      `select (select sum(p.amount_cents) from subscription_payment p
                where p.rewards_settled_at is not null and to_char(p.period_start at time zone 'UTC', 'YYYY-MM') = ?) as paid,
              sum(a.amount_cents) as creators,
              sum(a.amount_cents) filter (where a.creator_key is null) as unallocated,
              sum(a.amount_cents) filter (where a.creator_key is not null and not exists (
                select 1 from creator_claim c where c.subject = 'creator' and c.subject_key = a.creator_key and c.status = 'approved')) as unclaimed,
              sum(a.amount_cents) filter (where po.status = 'paid') as paid_out
         from reward_allocation a left join payout po on po.id = a.payout_id where a.period = ?`,
      [period, period],
    );
    const filter = creator ? 'and (a.creator_key = ? or lower(a.creator_name) = lower(?))' : '';
    const rows = await em.execute<
      { creator_key: string; creator_name: string; cents: string; seconds: number; subscribers: string; total: string }[]
    >(
      `select a.creator_key, max(a.creator_name) as creator_name, sum(a.amount_cents) as cents, sum(a.listened_seconds) as seconds,
              count(distinct s.user_id) as subscribers, count(*) over () as total
         from reward_allocation a
         join subscription_payment p on p.id = a.subscription_payment_id
         join subscription s on s.id = p.subscription_id
        where a.period = ? and a.creator_key is not null ${filter}
        group by a.creator_key
        order by cents desc, a.creator_key
        ${limit === null ? '' : 'limit ?'}`,
      [period, ...(creator ? [creator, creator] : []), ...(limit === null ? [] : [limit])],
    );
    return {
      period,
      paidCents: Number(totals?.paid ?? 0),
      creatorsCents: Number(totals?.creators ?? 0),
      unallocatedCents: Number(totals?.unallocated ?? 0),
      unclaimedCents: Number(totals?.unclaimed ?? 0),
      paidOutCents: Number(totals?.paid_out ?? 0),
      creatorCount: Number(rows[0]?.total ?? 0),
      creators: rows.map((row) => ({
        creatorKey: row.creator_key,
        creatorName: row.creator_name,
        amountCents: Number(row.cents),
        listenedSeconds: Math.round(Number(row.seconds) * 1000) / 1000,
        subscribers: Number(row.subscribers),
      })),
    };
  }
}

/** RFC 4180 quoting; a field a spreadsheet would run as a formula (=, +, -, @ first) is prefixed with an apostrophe. */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
