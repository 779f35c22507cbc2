import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../db/orm.js';
import { parseInput } from '../../shared/inputs.js';
import { type RolesService, rolePolicy } from '../roles/index.js';
import type { QueueStatus } from './moderation.entities.js';
import { ModerationErrors } from './moderation.errors.js';
import { auditInput, decisionInput, moderatorInput, queueInput } from './moderation.inputs.js';

export type Decision = 'approve' | 'reject';

export interface QueueItemView {
  id: string;
  kind: string;
  subjectId: string;
  summary: string;
  links: string[];
  raisedBy: { id: string; userName: string | null; displayName: string } | null;
  status: QueueStatus;
  openedAt: Date;
  decidedAt: Date | null;
  reason: string | null;
}

export interface AuditEntryView {
  id: string;
  actorId: string | null;
  actorName: string;
  action: string;
  targetKind: string;
  targetId: string;
  targetName: string | null;
  reason: string | null;
  at: Date;
}

export interface Page<T> {
  totalCount: number;
  page: number;
  items: T[];
}

export interface AuditLine {
  actorId: string;
  action: string;
  targetKind: string;
  targetId: string;
  targetName?: string | null;
  reason?: string | null;
}

/**
 * Decides one kind of queue item, inside the moderator's transaction (the item row locked). What it answers runs after
 * the commit (telling the member: notification, e-mail).
 */
export interface QueueHandler {
  decide(
    em: EntityManager,
    item: QueueItemView,
    decision: Decision,
    actorId: string,
    reason: string | null,
    detail?: DecisionDetail,
  ): Promise<(() => Promise<void>) | undefined>;
  /** Whether a kind takes this named action beside approve and reject (the trust module's hide, suspend, ...). */
  takes?(action: string): boolean;
}

/** A named action a kind's own skin asks for (its handler checked it with `takes`), and what it needs. */
export interface DecisionDetail {
  action: string;
  until?: Date | null;
}

interface ItemRow {
  id: string;
  kind: string;
  subject_id: string;
  summary: string;
  links: string[];
  raised_by_id: string | null;
  user_name: string | null;
  display_name: string | null;
  status: QueueStatus;
  opened_at: Date;
  decided_at: Date | null;
  reason: string | null;
  total?: string;
}

const itemSelect = (
  counted: boolean,
) => `select i.id, i.kind, i.subject_id, i.summary, i.links, i.raised_by_id, u.user_name, u.display_name,
  i.status, i.opened_at, i.decided_at, i.reason${counted ? ', count(*) over () as total' : ''}
  from moderation_item i left join app_user u on u.id = i.raised_by_id`;

const itemView = (row: ItemRow): QueueItemView => ({
  id: row.id,
  kind: row.kind,
  subjectId: row.subject_id,
  summary: row.summary,
  links: Array.isArray(row.links) ? row.links : [],
  raisedBy: row.raised_by_id ? { id: row.raised_by_id, userName: row.user_name, displayName: row.display_name ?? '' } : null,
  status: row.status,
  openedAt: new Date(row.opened_at),
  decidedAt: row.decided_at ? new Date(row.decided_at) : null,
  reason: row.reason,
});

/**
 * The moderation queue and the audit log (docs/moderation.md). Modules put items in the queue with `open` and
 * register a handler for their kind; moderators decide; every staff action is written with `record`, in the same
 * transaction as the change it describes, so there is no change without its line.
 */
export class ModerationService {
  private readonly handlers = new Map<string, QueueHandler>();

  constructor(
    private readonly orm: Orm,
    private readonly roles: RolesService,
  ) {}

  private em(): EntityManager {
    return this.orm.em.fork() as EntityManager;
  }

  register(kind: string, handler: QueueHandler): void {
    this.handlers.set(kind, handler);
  }

  /** Puts an item in the queue in the caller's transaction; an open item for the same subject is reused. */
  async open(
    em: EntityManager,
    item: { kind: string; subjectId: string; summary: string; links?: string[]; raisedBy: string | null },
  ): Promise<string> {
    const [row] = await em.execute<{ id: string }[]>(
      `insert into moderation_item (id, kind, subject_id, summary, links, raised_by_id, status, opened_at)
       values (gen_random_uuid(), ?, ?, ?, ?::jsonb, ?, 'open', clock_timestamp())
       on conflict (kind, subject_id) where status = 'open' do update set summary = excluded.summary returning id`,
      [item.kind, item.subjectId, item.summary, JSON.stringify(item.links ?? []), item.raisedBy],
    );
    return row.id;
  }

  /** Writes one audit line in the caller's transaction. */
  async record(em: EntityManager, line: AuditLine): Promise<void> {
    await em.execute(
      `insert into audit_entry (id, actor_id, actor_name, action, target_kind, target_id, target_name, reason, at)
       select gen_random_uuid(), u.id, coalesce(u.user_name, u.email), ?, ?, ?, ?, ?, clock_timestamp() from app_user u where u.id = ?`,
      [line.action, line.targetKind, line.targetId, line.targetName ?? null, line.reason ?? null, line.actorId],
    );
  }

  /** Whether the member reviews the queue (the web shows the Moderation page to them). */
  async canModerate(viewerId: string): Promise<boolean> {
    return rolePolicy.canModerate(await this.roles.roleOf(viewerId));
  }

  async queue(viewerId: string, raw: { status?: unknown; page?: unknown; first?: unknown }): Promise<Page<QueueItemView>> {
    rolePolicy.assertCanModerate(await this.roles.roleOf(viewerId));
    const input = parseInput(queueInput, raw);
    const order = input.status === 'open' ? 'i.opened_at, i.id' : 'i.decided_at desc, i.id';
    const rows = await this.em().execute<ItemRow[]>(`${itemSelect(true)} where i.status = ? order by ${order} limit ? offset ?`, [
      input.status,
      input.first,
      input.page * input.first,
    ]);
    return { totalCount: Number(rows[0]?.total ?? 0), page: input.page, items: rows.map(itemView) };
  }

  /** One queue item by its id (moderators and operators). */
  async item(viewerId: string, rawId: unknown): Promise<QueueItemView> {
    rolePolicy.assertCanModerate(await this.roles.roleOf(viewerId));
    const itemId = parseInput(decisionInput.shape.itemId, rawId);
    const [row] = itemId ? await this.em().execute<ItemRow[]>(`${itemSelect(false)} where i.id = ?`, [itemId]) : [];
    if (!row) throw ModerationErrors.itemNotFound();
    return itemView(row);
  }

  /** Approves or rejects an open item through its kind's handler, and writes the audit line, in one transaction. */
  async decide(
    viewerId: string,
    raw: { itemId?: unknown; decision?: unknown; reason?: unknown },
    detail?: DecisionDetail & { notForKind: () => Error },
  ): Promise<QueueItemView> {
    const input = parseInput(decisionInput, raw);
    const { view, after } = await this.em().transactional(async (txEm) => {
      const em = txEm as EntityManager;
      const role = await this.roles.roleIn(em, viewerId);
      rolePolicy.assertCanModerate(role);
      if (!input.itemId) throw ModerationErrors.itemNotFound();
      const [row] = await em.execute<ItemRow[]>(`${itemSelect(false)} where i.id = ? for update of i`, [input.itemId]);
      if (!row) throw ModerationErrors.itemNotFound();
      if (row.status !== 'open') throw ModerationErrors.alreadyDecided();
      rolePolicy.assertMayDecide(role, row.raised_by_id, viewerId);
      const handler = this.handlers.get(row.kind);
      if (!handler) throw ModerationErrors.unknownKind(row.kind);
      if (detail && !handler.takes?.(detail.action)) throw detail.notForKind();
      const item = itemView(row);
      const after = await handler.decide(em, item, input.decision, viewerId, input.reason, detail);
      const status: QueueStatus = input.decision === 'approve' ? 'approved' : 'rejected';
      await em.execute(
        'update moderation_item set status = ?, decided_at = clock_timestamp(), decided_by_id = ?, reason = ? where id = ?',
        [status, viewerId, input.reason, row.id],
      );
      await this.record(em, {
        actorId: viewerId,
        action: `${row.kind}.${detail?.action ?? input.decision}`,
        targetKind: row.kind,
        targetId: row.subject_id,
        targetName: row.summary.slice(0, 255),
        reason: input.reason,
      });
      return { view: { ...item, status, decidedAt: new Date(), reason: input.reason }, after };
    });
    await after?.();
    return view;
  }

  async audit(viewerId: string, raw: { page?: unknown; first?: unknown }): Promise<Page<AuditEntryView>> {
    rolePolicy.assertCanReadAudit(await this.roles.roleOf(viewerId));
    const input = parseInput(auditInput, raw);
    const rows = await this.em().execute<
      {
        id: string;
        actor_id: string | null;
        actor_name: string;
        action: string;
        target_kind: string;
        target_id: string;
        target_name: string | null;
        reason: string | null;
        at: Date;
        total: string;
      }[]
    >('select *, count(*) over () as total from audit_entry order by at desc, id desc limit ? offset ?', [
      input.first,
      input.page * input.first,
    ]);
    return {
      totalCount: Number(rows[0]?.total ?? 0),
      page: input.page,
      items: rows.map((row) => ({
        id: row.id,
        actorId: row.actor_id,
        actorName: row.actor_name,
        action: row.action,
        targetKind: row.target_kind,
        targetId: row.target_id,
        targetName: row.target_name,
        reason: row.reason,
        at: new Date(row.at),
      })),
    };
  }

  /** The moderators, for the operators' page. */
  async moderators(viewerId: string): Promise<{ id: string; userName: string | null; displayName: string; email: string }[]> {
    rolePolicy.assertCanReadAudit(await this.roles.roleOf(viewerId));
    const rows = await this.em().execute<{ id: string; user_name: string | null; display_name: string; email: string }[]>(
      `select u.id, u.user_name, u.display_name, u.email from member_role r join app_user u on u.id = r.user_id
        where r.role = 'moderator' order by r.granted_at, u.id limit 500`,
    );
    return rows.map((row) => ({ id: row.id, userName: row.user_name, displayName: row.display_name, email: row.email }));
  }

  /** An operator grants or revokes the moderator role (by user name or e-mail); answers whether anything changed. */
  async setModerator(viewerId: string, raw: { member?: unknown; grant?: unknown; reason?: unknown }): Promise<boolean> {
    const input = parseInput(moderatorInput, raw);
    return this.em().transactional(async (txEm) => {
      const em = txEm as EntityManager;
      const actorRole = await this.roles.roleIn(em, viewerId);
      rolePolicy.assertCanSetModerator(actorRole, 'member');
      const member = input.member.replace(/^@/, '');
      const [target] = await em.execute<{ id: string; name: string }[]>(
        'select id, coalesce(user_name, email) as name from app_user where lower(user_name) = lower(?) or email = lower(?) limit 1',
        [member, member],
      );
      if (!target) throw ModerationErrors.memberNotFound();
      const before = await this.roles.roleIn(em, target.id);
      rolePolicy.assertCanSetModerator(actorRole, before);
      const after = input.grant ? 'moderator' : 'member';
      if (before === after) return false;
      await this.roles.setIn(em, target.id, input.grant ? 'moderator' : null);
      await this.record(em, {
        actorId: viewerId,
        action: input.grant ? 'role.grant' : 'role.revoke',
        targetKind: 'member',
        targetId: target.id,
        targetName: `${target.name}: moderator`,
        reason: input.reason,
      });
      return true;
    });
  }
}
