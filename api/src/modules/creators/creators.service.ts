import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../db/orm.js';
import { parseInput } from '../../shared/inputs.js';
import type { Mailer } from '../mail/index.js';
import { claimDecisionMail } from '../mail/index.js';
import type { Decision, ModerationService, QueueItemView } from '../moderation/index.js';
import { type Creator, creatorKey } from '../tracks/index.js';
import { CreatorErrors } from './creator.errors.js';
import { claimInput } from './creator.inputs.js';
import { creatorPolicy } from './creator.policy.js';
import type { ClaimStatus, ClaimSubject } from './creator-claim.entity.js';

export interface ClaimView {
  id: string;
  subject: ClaimSubject;
  subjectKey: string;
  subjectName: string;
  evidence: string[];
  note: string;
  status: ClaimStatus;
  createdAt: Date;
  decidedAt: Date | null;
  reason: string | null;
  /** The queue item it waits in: a plain claim, or a dispute of a held name. */
  queueKind: 'creator_claim' | 'claim_dispute';
}

export interface HeldName {
  subject: ClaimSubject;
  key: string;
  name: string;
}

export interface Holder {
  userId: string;
  userName: string | null;
}

/** Where the claimant is told of the decision (the notifications module; services.ts hands it in). */
export interface ClaimNotices {
  record(
    em: EntityManager,
    notice: { recipientId: string; actorId: string; kind: 'CLAIM_APPROVED' | 'CLAIM_REJECTED'; detail: string },
  ): Promise<string>;
  announce(noticeId: string): Promise<void>;
}

interface ClaimRow {
  id: string;
  user_id: string;
  subject: ClaimSubject;
  subject_key: string;
  subject_name: string;
  evidence: string[];
  note: string;
  status: ClaimStatus;
  created_at: Date;
  decided_at: Date | null;
  reason: string | null;
}

const claimView = (row: ClaimRow, queueKind: ClaimView['queueKind']): ClaimView => ({
  id: row.id,
  subject: row.subject,
  subjectKey: row.subject_key,
  subjectName: row.subject_name,
  evidence: row.evidence,
  note: row.note,
  status: row.status,
  createdAt: new Date(row.created_at),
  decidedAt: row.decided_at ? new Date(row.decided_at) : null,
  reason: row.reason,
  queueKind,
});

/** `creator:` or `label:` and the key: how a held name is told apart across the two kinds. */
export const heldRef = (subject: ClaimSubject, key: string) => `${subject}:${key}`;

/**
 * Creator claims (docs/creators.md#claims): members claim a catalogue creator or label, moderators decide in the
 * queue, the member is told by notification and e-mail. Approved claims say who holds a name: earnings, payouts and
 * reference audio follow the holder.
 */
export class CreatorsService {
  constructor(
    private readonly orm: Orm,
    private readonly moderation: ModerationService,
    private readonly notices: ClaimNotices,
    private readonly mailer: Mailer,
    private readonly publicUrl: string,
    /** Spends one of the member's daily claims, or throws the 429 that names the limit (docs/creators.md#claims). */
    private readonly limitClaim: (memberId: string) => Promise<void>,
  ) {
    const handler = { decide: this.decide.bind(this) };
    moderation.register('creator_claim', handler);
    moderation.register('claim_dispute', handler);
  }

  private em(): EntityManager {
    return this.orm.em.fork() as EntityManager;
  }

  /** A member claims a creator or label; the claim waits in the moderation queue (as a dispute when the name is held). */
  async claim(viewerId: string, raw: Record<string, unknown>): Promise<ClaimView> {
    const input = parseInput(claimInput, raw);
    // Counted once the input is well formed, whatever the queue then says: a refused claim still asked a question.
    await this.limitClaim(viewerId);
    return this.em().transactional(async (txEm) => {
      const em = txEm as EntityManager;
      const found = await this.findSubject(em, input.subject, input.name, input.trackId);
      const key = creatorKey(found);
      // Serialise claims on one name, so the held check and the insert see the same holder.
      await em.execute('select pg_advisory_xact_lock(hashtext(?))', [heldRef(input.subject, key)]);
      const [holder] = await em.execute<{ user_id: string; user_name: string | null }[]>(
        `select c.user_id, u.user_name from creator_claim c join app_user u on u.id = c.user_id
          where c.subject = ? and c.subject_key = ? and c.status = 'approved'`,
        [input.subject, key],
      );
      if (holder?.user_id === viewerId) throw CreatorErrors.alreadyYours();
      const [pending] = await em.execute<{ id: string }[]>(
        `select id from creator_claim where user_id = ? and subject = ? and subject_key = ? and status = 'pending'`,
        [viewerId, input.subject, key],
      );
      if (pending) throw CreatorErrors.alreadyPending();
      const [row] = await em.execute<ClaimRow[]>(
        `insert into creator_claim (id, user_id, subject, subject_key, subject_name, evidence, note, status, created_at)
         values (gen_random_uuid(), ?, ?, ?, ?, ?::jsonb, ?, 'pending', now()) returning *`,
        [viewerId, input.subject, key, found.name, JSON.stringify(input.evidence), input.note],
      );
      const kind = creatorPolicy.queueKind(holder?.user_id ?? null, viewerId);
      const [claimant] = await em.execute<{ name: string }[]>(
        'select coalesce(user_name, display_name) as name from app_user where id = ?',
        [viewerId],
      );
      const dispute = kind === 'claim_dispute' ? ` (held by @${holder?.user_name ?? 'another member'})` : '';
      await this.moderation.open(em, {
        kind,
        subjectId: row.id,
        summary: `@${claimant?.name ?? 'member'} claims the ${input.subject} "${found.name}"${dispute}.${input.note ? ` Note: ${input.note}` : ''}`,
        links: input.evidence,
        raisedBy: viewerId,
      });
      return claimView(row, kind);
    });
  }

  /** The member's own claims, newest first. */
  async claimsOf(viewerId: string): Promise<ClaimView[]> {
    const rows = await this.em().execute<(ClaimRow & { kind: ClaimView['queueKind'] | null })[]>(
      `select c.*, (select i.kind from moderation_item i where i.subject_id = c.id::text order by i.opened_at desc limit 1) as kind
         from creator_claim c where c.user_id = ? order by c.created_at desc limit 100`,
      [viewerId],
    );
    return rows.map((row) => claimView(row, row.kind ?? 'creator_claim'));
  }

  /** The names a member holds (their verified badge), in name order. */
  async heldBy(userId: string): Promise<HeldName[]> {
    const rows = await this.em().execute<{ subject: ClaimSubject; subject_key: string; subject_name: string }[]>(
      `select subject, subject_key, subject_name from creator_claim where user_id = ? and status = 'approved' order by subject_name limit 200`,
      [userId],
    );
    return rows.map((row) => ({ subject: row.subject, key: row.subject_key, name: row.subject_name }));
  }

  /** The creator keys (as the ledger writes them) a member holds. */
  async creatorKeysOf(userId: string): Promise<string[]> {
    return (await this.heldBy(userId)).filter((held) => held.subject === 'creator').map((held) => held.key);
  }

  /** Every member holding creator names, with the keys they hold (the payout run's list). */
  async allCreatorHolders(): Promise<{ userId: string; keys: string[] }[]> {
    const rows = await this.em().execute<{ user_id: string; keys: string[] }[]>(
      `select user_id, array_agg(subject_key order by subject_key) as keys from creator_claim
        where status = 'approved' and subject = 'creator' group by user_id order by user_id`,
    );
    return rows.map((row) => ({ userId: row.user_id, keys: row.keys }));
  }

  /** The holders of the given creators and label, keyed by heldRef. */
  async holdersOf(names: { subject: ClaimSubject; key: string }[]): Promise<Map<string, Holder>> {
    const holders = new Map<string, Holder>();
    if (names.length === 0) return holders;
    const rows = await this.em().execute<{ subject: ClaimSubject; subject_key: string; user_id: string; user_name: string | null }[]>(
      `select c.subject, c.subject_key, c.user_id, u.user_name from creator_claim c join app_user u on u.id = c.user_id
        where c.status = 'approved' and (c.subject || ':' || c.subject_key) in (?)`,
      [names.map((name) => heldRef(name.subject, name.key))],
    );
    for (const row of rows) holders.set(heldRef(row.subject, row.subject_key), { userId: row.user_id, userName: row.user_name });
    return holders;
  }

  /** Whether the member holds one of the track's creators or its label (reference audio, docs/creators.md#reference-audio). */
  async holdsTrack(userId: string, track: { creators: Creator[]; label: Creator | null }): Promise<boolean> {
    const held = (await this.heldBy(userId)).map((name) => heldRef(name.subject, name.key));
    const keys = [
      ...track.creators.filter((creator) => creator?.name).map((creator) => heldRef('creator', creatorKey(creator))),
      ...(track.label?.name ? [heldRef('label', creatorKey(track.label))] : []),
    ];
    return creatorPolicy.holdsTrack(held, keys);
  }

  private async findSubject(em: EntityManager, subject: ClaimSubject, name: string, trackId: string | null | undefined): Promise<Creator> {
    if (trackId === null) throw CreatorErrors.trackNotFound();
    const where = trackId ? 't.id = ?' : 'true';
    const params = trackId ? [trackId] : [];
    const [row] =
      subject === 'creator'
        ? await em.execute<{ id: string | null; name: string }[]>(
            `select c->>'id' as id, c->>'name' as name from track t, jsonb_array_elements(t.creators) c
              where ${where} and lower(trim(c->>'name')) = lower(trim(?)) order by (c->>'id') is null, t.created_at limit 1`,
            [...params, name],
          )
        : await em.execute<{ id: string | null; name: string }[]>(
            `select t.label->>'id' as id, t.label->>'name' as name from track t
              where ${where} and lower(trim(t.label->>'name')) = lower(trim(?)) order by (t.label->>'id') is null, t.created_at limit 1`,
            [...params, name],
          );
    if (!row) {
      if (trackId && !(await em.execute('select 1 from track where id = ?', [trackId])).length) throw CreatorErrors.trackNotFound();
      throw CreatorErrors.subjectNotFound(subject, name);
    }
    return { id: row.id, name: row.name };
  }

  private async decide(em: EntityManager, item: QueueItemView, decision: Decision, _actorId: string, reason: string | null) {
    const [claim] = await em.execute<ClaimRow[]>('select * from creator_claim where id::text = ? for update', [item.subjectId]);
    if (!claim || !creatorPolicy.decidable(claim.status)) throw CreatorErrors.claimGone();
    if (decision === 'approve') {
      await em.execute('select pg_advisory_xact_lock(hashtext(?))', [heldRef(claim.subject, claim.subject_key)]);
      // A dispute won: the previous holder no longer holds the name (their money from now on follows the new holder).
      await em.execute(
        `update creator_claim set status = 'revoked', decided_at = now(), reason = ? where subject = ? and subject_key = ? and status = 'approved'`,
        [reason ?? 'Another member’s claim on this name was approved', claim.subject, claim.subject_key],
      );
    }
    const status: ClaimStatus = decision === 'approve' ? 'approved' : 'rejected';
    await em.execute('update creator_claim set status = ?, decided_at = now(), reason = ? where id = ?', [status, reason, claim.id]);
    const noticeId = await this.notices.record(em, {
      recipientId: claim.user_id,
      actorId: claim.user_id,
      kind: decision === 'approve' ? 'CLAIM_APPROVED' : 'CLAIM_REJECTED',
      detail: claim.subject_name,
    });
    const [member] = await em.execute<{ email: string; user_name: string | null }[]>('select email, user_name from app_user where id = ?', [
      claim.user_id,
    ]);
    return async () => {
      await this.notices.announce(noticeId);
      if (member)
        await this.mailer.send(
          claimDecisionMail(member.email, {
            name: claim.subject_name,
            approved: decision === 'approve',
            reason,
            profileUrl: `${this.publicUrl}/profile/${encodeURIComponent(member.user_name ?? '')}`,
          }),
        );
    };
  }
}
