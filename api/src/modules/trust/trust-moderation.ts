import type { EntityManager } from '@mikro-orm/postgresql';
import { parseInput } from '../../shared/inputs.js';
import type { Decision, DecisionDetail, QueueItemView } from '../moderation/index.js';
import { rolePolicy } from '../roles/index.js';
import { TrustErrors } from './trust.errors.js';
import { restoreInput, trustActionInput } from './trust.inputs.js';
import { type TrustAction, type TrustKind, trustPolicy } from './trust.policy.js';
import { TrustNumbers } from './trust-numbers.js';
import { afterAll, type TrustPorts, tell } from './trust-ports.js';
import { NOTICE_SELECT, type NoticeRow, parseReportSubject } from './trust-reads.js';

interface Effect {
  mixId: string | null;
  memberId: string;
  actorId: string;
  reason: string | null;
  until: Date | null;
}

const why = (reason: string | null) => (reason ? [`The moderator’s reason: ${reason}`] : []);

/**
 * What moderators do with reports and notices (docs/trust.md#moderation): the queue handlers of both kinds, holds on
 * mixes, warnings, suspensions and restoring. Every step writes its audit line in the same transaction.
 */
export class TrustModeration extends TrustNumbers {
  constructor(ports: TrustPorts) {
    super(ports);
    for (const kind of ['report', 'copyright_notice'] as const) {
      ports.moderation.register(kind, {
        takes: (action) => trustPolicy.takes(kind, action),
        decide: (em, item, decision, actorId, reason, detail) => this.decideItem(kind, em, item, decision, actorId, reason, detail),
      });
    }
  }

  /** A moderator acts on a report or a notice in the queue; the item closes as upheld or let go. */
  async moderate(viewerId: string, raw: Record<string, unknown>): Promise<QueueItemView> {
    const input = parseInput(trustActionInput, raw);
    if (input.action === 'suspend_member' && input.suspendedUntil && input.suspendedUntil.getTime() <= Date.now())
      throw TrustErrors.untilInPast();
    return this.ports.moderation.decide(
      viewerId,
      { itemId: input.itemId, decision: trustPolicy.decisionOf(input.action), reason: input.reason },
      { action: input.action, until: input.suspendedUntil ?? null, notForKind: () => TrustErrors.notForItem(input.action) },
    );
  }

  private async decideItem(
    kind: TrustKind,
    em: EntityManager,
    item: QueueItemView,
    decision: Decision,
    actorId: string,
    reason: string | null,
    detail?: DecisionDetail,
  ): Promise<() => Promise<void>> {
    const steps =
      kind === 'report'
        ? await this.decideReport(em, item, decision, actorId, reason, detail)
        : await this.decideNotice(em, item, decision, actorId, reason, detail);
    const run = afterAll(steps);
    return () => run().catch((error: unknown) => this.ports.log(error, 'could not finish a trust decision after its commit'));
  }

  private async decideReport(
    em: EntityManager,
    item: QueueItemView,
    decision: Decision,
    actorId: string,
    reason: string | null,
    detail?: DecisionDetail,
  ): Promise<(() => Promise<void>)[]> {
    const target = parseReportSubject(item.subjectId);
    if (!target) throw TrustErrors.targetNotFound();
    const action = (detail?.action as TrustAction | undefined) ?? trustPolicy.defaultAction('report', target.kind, decision);
    trustPolicy.assertActionFits('report', target.kind, action);
    const [owner] =
      target.kind === 'mix'
        ? await em.execute<{ id: string }[]>('select owner_id as id from mix where id = ?', [target.id])
        : await em.execute<{ id: string }[]>('select id from app_user where id = ?', [target.id]);
    const steps = owner
      ? await this.apply(em, action, {
          mixId: target.kind === 'mix' ? target.id : null,
          memberId: owner.id,
          actorId,
          reason,
          until: detail?.until ?? null,
        })
      : [];
    const reporters = await em.execute<{ reporter_id: string }[]>(
      `update content_report set status = ?, outcome = ?, decided_at = clock_timestamp()
        where target_kind = ? and target_id = ? and status = 'open' returning reporter_id`,
      [action === 'dismiss' ? 'dismissed' : 'upheld', action === 'dismiss' ? null : action, target.kind, target.id],
    );
    // Reporters are told by notification only (their reports page says what was done); never who did it.
    for (const { reporter_id: recipientId } of reporters) {
      const id = await this.ports.notifications.record(em, { recipientId, actorId: recipientId, kind: 'REPORT_DECIDED', detail: action });
      steps.push(() => this.ports.notifications.announce(id));
    }
    return steps;
  }

  private async decideNotice(
    em: EntityManager,
    item: QueueItemView,
    decision: Decision,
    actorId: string,
    reason: string | null,
    detail?: DecisionDetail,
  ): Promise<(() => Promise<void>)[]> {
    const [notice] = await em.execute<NoticeRow[]>(`${NOTICE_SELECT} where n.id::text = ? for update of n`, [item.subjectId]);
    if (!notice || notice.status === 'restored' || notice.status === 'removed') throw TrustErrors.noticeClosed();
    const action = (detail?.action as TrustAction | undefined) ?? trustPolicy.defaultAction('copyright_notice', 'mix', decision);
    trustPolicy.assertActionFits('copyright_notice', 'mix', action);
    const effect: Effect = { mixId: notice.mix_id, memberId: notice.owner_id, actorId, reason, until: null };
    await em.execute(`update copyright_notice set status = ?, decided_at = clock_timestamp() where id = ?`, [
      action === 'restore' ? 'restored' : 'removed',
      notice.id,
    ]);
    const record = (what: string) =>
      this.ports.moderation.record(em, {
        actorId,
        action: what,
        targetKind: 'copyright_notice',
        targetId: notice.id,
        targetName: notice.mix_title,
        reason,
      });
    let steps: (() => Promise<void>)[];
    if (action === 'restore') {
      await record('notice.restored');
      // Another open notice on the same mix keeps it hidden until that one is decided too.
      const [other] = await em.execute(`select 1 from copyright_notice where mix_id = ? and id <> ? and status in ('open', 'countered')`, [
        notice.mix_id,
        notice.id,
      ]);
      steps = other ? [] : await this.restoreHold(em, notice.mix_id, actorId, reason);
    } else {
      await record(action === 'remove_and_strike' ? 'notice.removed_with_strike' : 'notice.removed');
      steps = await this.apply(em, 'remove_mix', effect);
      if (action === 'remove_and_strike') {
        await em.execute(
          `insert into copyright_strike (id, member_id, notice_id, at) values (gen_random_uuid(), ?, ?, clock_timestamp())`,
          [notice.owner_id, notice.id],
        );
      }
    }
    if (notice.filer_id) {
      steps.push(
        await tell(this.ports, em, {
          recipientId: notice.filer_id,
          kind: 'NOTICE_DECIDED',
          detail: notice.mix_title,
          subject: `Your notice on “${notice.mix_title}” was decided`,
          paragraphs: [
            action === 'restore'
              ? `A moderator restored “${notice.mix_title}”: the notice was not upheld.`
              : `A moderator upheld your notice: “${notice.mix_title}” is removed.`,
            ...why(reason),
          ],
          link: { href: `${this.ports.publicUrl}/notices/${notice.id}`, label: 'The notice and its history' },
        }),
      );
    }
    return steps;
  }

  /** One action's effect on the mix or the member, with its audit line; answers what runs after the commit. */
  private async apply(em: EntityManager, action: TrustAction, effect: Effect): Promise<(() => Promise<void>)[]> {
    const link = { href: `${this.ports.publicUrl}/notices`, label: 'Your notices and reports' };
    if ((action === 'hide_mix' || action === 'remove_mix') && effect.mixId) {
      const state = action === 'hide_mix' ? 'hidden' : 'removed';
      const [mix] = await em.execute<{ title: string }[]>(
        `update mix set moderation_state = ?, moderation_reason = ?, moderated_at = clock_timestamp() where id = ? returning title`,
        [state, effect.reason, effect.mixId],
      );
      await this.ports.moderation.record(em, {
        actorId: effect.actorId,
        action: action === 'hide_mix' ? 'mix.hide' : 'mix.remove',
        targetKind: 'mix',
        targetId: effect.mixId,
        targetName: mix?.title ?? null,
        reason: effect.reason,
      });
      return [
        await tell(this.ports, em, {
          recipientId: effect.memberId,
          kind: action === 'hide_mix' ? 'MIX_HIDDEN' : 'MIX_REMOVED',
          detail: mix?.title ?? '',
          subject: `Your mix “${mix?.title ?? ''}” was ${state} by a moderator`,
          paragraphs: [`A moderator ${state} your mix “${mix?.title ?? ''}”: nobody but you sees it now.`, ...why(effect.reason)],
          link,
        }),
      ];
    }
    if (action === 'warn') {
      await this.ports.moderation.record(em, {
        actorId: effect.actorId,
        action: 'member.warn',
        targetKind: 'member',
        targetId: effect.memberId,
        reason: effect.reason,
      });
      return [
        await tell(this.ports, em, {
          recipientId: effect.memberId,
          kind: 'WARNED',
          detail: effect.reason ?? '',
          subject: 'A warning from the mixcrate moderators',
          paragraphs: [
            'A moderator looked at a report about you or your mix and warns you: please keep to the code of conduct.',
            ...why(effect.reason),
          ],
          link,
        }),
      ];
    }
    if (action === 'suspend_member') return this.suspend(em, effect);
    return [];
  }

  private async suspend(em: EntityManager, effect: Effect): Promise<(() => Promise<void>)[]> {
    if (effect.memberId === effect.actorId || rolePolicy.canModerate(await this.ports.roles.roleIn(em, effect.memberId)))
      throw TrustErrors.staffMember();
    await em.execute('update app_user set suspended_at = clock_timestamp(), suspended_until = ?, suspension_reason = ? where id = ?', [
      effect.until,
      effect.reason,
      effect.memberId,
    ]);
    await this.ports.moderation.record(em, {
      actorId: effect.actorId,
      action: 'member.suspend',
      targetKind: 'member',
      targetId: effect.memberId,
      targetName: effect.until ? `until ${effect.until.toISOString()}` : 'until restored',
      reason: effect.reason,
    });
    const told = await tell(this.ports, em, {
      recipientId: effect.memberId,
      kind: 'WARNED',
      detail: effect.reason ?? 'suspended',
      subject: 'Your mixcrate account is suspended',
      paragraphs: [
        `A moderator suspended your account ${effect.until ? `until ${effect.until.toISOString().slice(0, 10)}` : 'until a moderator lifts it'}: you cannot sign in, and your profile and mixes are hidden.`,
        ...why(effect.reason),
      ],
      link: { href: `${this.ports.publicUrl}/transparency`, label: 'How moderation works' },
    });
    const memberId = effect.memberId;
    return [async () => void (await this.ports.endSessions(memberId)), told];
  }

  /** Lifts a hold on a mix: every other column is as it was, so it is back everywhere as before. */
  private async restoreHold(em: EntityManager, mixId: string, actorId: string, reason: string | null): Promise<(() => Promise<void>)[]> {
    const [mix] = await em.execute<{ title: string; owner_id: string }[]>(
      `update mix set moderation_state = null, moderation_reason = null, moderated_at = null
        where id = ? and moderation_state is not null returning title, owner_id`,
      [mixId],
    );
    if (!mix) return [];
    await this.ports.moderation.record(em, {
      actorId,
      action: 'mix.restore',
      targetKind: 'mix',
      targetId: mixId,
      targetName: mix.title,
      reason,
    });
    return [
      await tell(this.ports, em, {
        recipientId: mix.owner_id,
        kind: 'MIX_RESTORED',
        detail: mix.title,
        subject: `Your mix “${mix.title}” is back`,
        paragraphs: [`A moderator restored your mix “${mix.title}”: everyone sees it again.`, ...why(reason)],
        link: { href: `${this.ports.publicUrl}/mix/${mixId}`, label: 'Your mix' },
      }),
    ];
  }

  async restoreMix(viewerId: string, raw: Record<string, unknown>): Promise<boolean> {
    const input = parseInput(restoreInput, raw);
    const steps = await this.em().transactional(async (txEm) => {
      const em = txEm as EntityManager;
      trustPolicy.assertMay('restoreMix', await this.ports.roles.roleIn(em, viewerId));
      if (!input.id) throw TrustErrors.mixNotFound();
      const [mix] = await em.execute<{ held: boolean }[]>('select moderation_state is not null as held from mix where id = ? for update', [
        input.id,
      ]);
      if (!mix) throw TrustErrors.mixNotFound();
      if (!mix.held) throw TrustErrors.nothingHeld();
      return this.restoreHold(em, input.id, viewerId, input.reason);
    });
    await this.runAfter(afterAll(steps));
    return true;
  }

  async restoreMember(viewerId: string, raw: Record<string, unknown>): Promise<boolean> {
    const input = parseInput(restoreInput, raw);
    return this.em().transactional(async (txEm) => {
      const em = txEm as EntityManager;
      trustPolicy.assertMay('restoreMember', await this.ports.roles.roleIn(em, viewerId));
      if (!input.id) throw TrustErrors.memberNotFound();
      const [member] = await em.execute<{ suspended: boolean; name: string }[]>(
        'select suspended_at is not null as suspended, coalesce(user_name, email) as name from app_user where id = ? for update',
        [input.id],
      );
      if (!member) throw TrustErrors.memberNotFound();
      if (!member.suspended) throw TrustErrors.notSuspended();
      await em.execute('update app_user set suspended_at = null, suspended_until = null, suspension_reason = null where id = ?', [
        input.id,
      ]);
      await this.ports.moderation.record(em, {
        actorId: viewerId,
        action: 'member.restore',
        targetKind: 'member',
        targetId: input.id,
        targetName: member.name,
        reason: input.reason,
      });
      return true;
    });
  }

  /** Runs what a decision does after its commit; a failed mail does not undo it. */
  protected async runAfter(after: (() => Promise<void>) | undefined): Promise<void> {
    await after?.().catch((error: unknown) => this.ports.log(error, 'could not tell a member about a trust decision'));
  }
}
