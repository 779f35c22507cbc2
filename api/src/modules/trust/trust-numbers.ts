import type { EntityManager } from '@mikro-orm/postgresql';
import { parseInput } from '../../shared/inputs.js';
import { activeMemberSql } from '../users/index.js';
import { TrustErrors } from './trust.errors.js';
import { pageInput, strikePolicyInput, transparencyInput } from './trust.inputs.js';
import { STRIKE_POLICY_DEFAULT, trustPolicy } from './trust.policy.js';
import type {
  HeldMixView,
  MixModerationState,
  Page,
  StrikePolicyView,
  SuspendedMemberView,
  TransparencyMonthView,
  TrustItemView,
  UploadBlockView,
} from './trust.views.js';
import { itemDetails } from './trust-details.js';
import type { TrustPorts } from './trust-ports.js';

/** The audit actions the transparency report counts (docs/trust.md#transparency). */
const TAKEDOWNS = `'mix.hide', 'mix.remove'`;
const RESTORATIONS = `'mix.restore', 'member.restore'`;

/**
 * The numbers of the trust module: the strike policy and who it blocks, the transparency report, and what moderators
 * read (held mixes, suspended members, a queue item's details, a mix's hold).
 */
export class TrustNumbers {
  constructor(protected readonly ports: TrustPorts) {}

  protected em(): EntityManager {
    return this.ports.orm.em.fork() as EntityManager;
  }

  async strikePolicy(em: EntityManager = this.em()): Promise<StrikePolicyView> {
    const [row] = await em.execute<{ strike_limit: number; window_days: number }[]>(
      'select strike_limit, window_days from strike_policy where id = 1',
    );
    return row ? { strikeLimit: row.strike_limit, windowDays: row.window_days } : STRIKE_POLICY_DEFAULT;
  }

  /** Operators set the repeat-infringer numbers; the change is in the audit log. */
  async setStrikePolicy(viewerId: string, raw: Record<string, unknown>): Promise<StrikePolicyView> {
    const input = parseInput(strikePolicyInput, raw);
    return this.em().transactional(async (txEm) => {
      const em = txEm as EntityManager;
      trustPolicy.assertMay('setStrikePolicy', await this.ports.roles.roleIn(em, viewerId));
      await em.execute(
        `insert into strike_policy (id, strike_limit, window_days, updated_at) values (1, ?, ?, clock_timestamp())
         on conflict (id) do update set strike_limit = excluded.strike_limit, window_days = excluded.window_days, updated_at = excluded.updated_at`,
        [input.strikeLimit, input.windowDays],
      );
      await this.ports.moderation.record(em, {
        actorId: viewerId,
        action: 'strike_policy.set',
        targetKind: 'settings',
        targetId: 'strike_policy',
        targetName: `${input.strikeLimit} strikes in ${input.windowDays} days`,
        reason: input.reason,
      });
      return { strikeLimit: input.strikeLimit, windowDays: input.windowDays };
    });
  }

  /** Why and until when the member's uploads are refused, or null. */
  async uploadBlockOf(memberId: string, em: EntityManager = this.em()): Promise<UploadBlockView | null> {
    const policy = await this.strikePolicy(em);
    const rows = await em.execute<{ at: Date }[]>(
      `select at from copyright_strike where member_id = ? and at > now() - make_interval(days => ?) order by at desc limit 1000`,
      [memberId, policy.windowDays],
    );
    return trustPolicy.uploadBlock(
      rows.map((row) => new Date(row.at)),
      policy,
    );
  }

  /** Starting an upload or a draft: refused to a repeat infringer, saying why and until when. */
  async assertCanUpload(memberId: string): Promise<void> {
    const block = await this.uploadBlockOf(memberId);
    if (block) throw TrustErrors.uploadsBlocked(block.strikes, block.until);
  }

  /** Per month (UTC), newest first: counts only, never names. */
  async transparency(raw: { months?: unknown }): Promise<TransparencyMonthView[]> {
    const input = parseInput(transparencyInput, raw);
    const rows = await this.em().execute<
      {
        month: string;
        reports: string;
        notices: string;
        takedowns: string;
        counters: string;
        restorations: string;
        suspensions: string;
      }[]
    >(
      `with months as (
         select generate_series(date_trunc('month', now() at time zone 'utc') - make_interval(months => ? - 1),
                                date_trunc('month', now() at time zone 'utc'), interval '1 month') as start)
       select to_char(start, 'YYYY-MM') as month,
         (select count(*) from content_report where created_at at time zone 'utc' >= start and created_at at time zone 'utc' < start + interval '1 month') as reports,
         (select count(*) from copyright_notice where created_at at time zone 'utc' >= start and created_at at time zone 'utc' < start + interval '1 month') as notices,
         (select count(distinct target_id) from audit_entry where action in (${TAKEDOWNS})
            and at at time zone 'utc' >= start and at at time zone 'utc' < start + interval '1 month') as takedowns,
         (select count(*) from copyright_notice where countered_at at time zone 'utc' >= start and countered_at at time zone 'utc' < start + interval '1 month') as counters,
         (select count(*) from audit_entry where action in (${RESTORATIONS})
            and at at time zone 'utc' >= start and at at time zone 'utc' < start + interval '1 month') as restorations,
         (select count(*) from audit_entry where action = 'member.suspend'
            and at at time zone 'utc' >= start and at at time zone 'utc' < start + interval '1 month') as suspensions
       from months order by start desc`,
      [input.months],
    );
    return rows.map((row) => ({
      month: row.month,
      reportsReceived: Number(row.reports),
      notices: Number(row.notices),
      takedowns: Number(row.takedowns),
      counterNotices: Number(row.counters),
      restorations: Number(row.restorations),
      suspensions: Number(row.suspensions),
    }));
  }

  async heldMixes(viewerId: string, raw: { page?: unknown; first?: unknown }): Promise<Page<HeldMixView>> {
    trustPolicy.assertMay('heldMixes', await this.ports.roles.roleOf(viewerId));
    const input = parseInput(pageInput, raw);
    const rows = await this.em().execute<
      {
        id: string;
        title: string;
        owner_name: string;
        moderation_state: MixModerationState;
        moderation_reason: string | null;
        moderated_at: Date | null;
        total: string;
      }[]
    >(
      `select m.id, m.title, coalesce(u.user_name, u.display_name) as owner_name, m.moderation_state, m.moderation_reason, m.moderated_at,
         count(*) over () as total
         from mix m join app_user u on u.id = m.owner_id where m.moderation_state is not null and m.deactivated_at is null
        order by m.moderated_at desc nulls last, m.id limit ? offset ?`,
      [input.first, input.page * input.first],
    );
    return {
      totalCount: Number(rows[0]?.total ?? 0),
      page: input.page,
      items: rows.map((row) => ({
        mixId: row.id,
        title: row.title,
        ownerName: row.owner_name,
        state: row.moderation_state,
        reason: row.moderation_reason,
        at: row.moderated_at ? new Date(row.moderated_at) : null,
      })),
    };
  }

  async suspendedMembers(viewerId: string, raw: { page?: unknown; first?: unknown }): Promise<Page<SuspendedMemberView>> {
    trustPolicy.assertMay('suspendedMembers', await this.ports.roles.roleOf(viewerId));
    const input = parseInput(pageInput, raw);
    const rows = await this.em().execute<
      {
        id: string;
        user_name: string | null;
        display_name: string;
        suspended_at: Date;
        suspended_until: Date | null;
        suspension_reason: string | null;
        total: string;
      }[]
    >(
      `select id, user_name, display_name, suspended_at, suspended_until, suspension_reason, count(*) over () as total
         from app_user u where not ${activeMemberSql('u')} order by suspended_at desc, id limit ? offset ?`,
      [input.first, input.page * input.first],
    );
    return {
      totalCount: Number(rows[0]?.total ?? 0),
      page: input.page,
      items: rows.map((row) => ({
        id: row.id,
        userName: row.user_name,
        displayName: row.display_name,
        suspendedAt: new Date(row.suspended_at),
        suspendedUntil: row.suspended_until ? new Date(row.suspended_until) : null,
        reason: row.suspension_reason,
      })),
    };
  }

  /** What a moderator sees beside a report or a notice in the queue; null for the other kinds. */
  async itemDetails(viewerId: string, item: { kind: string; subjectId: string }): Promise<TrustItemView | null> {
    if (item.kind !== 'report' && item.kind !== 'copyright_notice') return null;
    trustPolicy.assertMay('trustItemDetails', await this.ports.roles.roleOf(viewerId));
    return itemDetails(this.em(), item.kind, item.subjectId, viewerId);
  }

  /** The hold on a mix, for its owner and moderators; null for anyone else. */
  async moderationStateOf(viewerId: string | null, mixId: string, ownerId: string): Promise<MixModerationState | null> {
    if (!viewerId) return null;
    const em = this.em();
    if (viewerId !== ownerId && !trustPolicy.seesHold(viewerId, ownerId, await this.ports.roles.roleOf(viewerId))) return null;
    const [row] = await em.execute<{ moderation_state: MixModerationState | null }[]>('select moderation_state from mix where id = ?', [
      mixId,
    ]);
    return row?.moderation_state ?? null;
  }
}
