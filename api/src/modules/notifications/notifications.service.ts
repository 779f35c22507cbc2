import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../db/orm.js';
import { encodeCursor, keysetReading, type PageEnds, pageOfRows, timestampKeySql } from '../../shared/cursor.js';
import { DEFAULT_USER_TYPE, isUserTypeCode, type UserTypeCode } from '../../shared/domain.js';
import { cellDistanceSql, wholeKm } from '../../shared/geo.js';
import { parseInput } from '../../shared/inputs.js';
import type { FollowCode } from '../follows/index.js';
import { activeMemberSql, type IUser } from '../users/index.js';
import { notificationIdInput, notificationPageInput } from './notification.inputs.js';
import { notificationPolicy } from './notification.policy.js';

/**
 * What happened: someone followed or unfollowed the recipient (the follow toggle's own codes), or a moderator decided
 * the recipient's creator claim (the actor is then the recipient: moderators stay unnamed, docs/creators.md#claims).
 */
/** The trust module's words to a member about their mix or account (docs/trust.md#what-members-are-told). */
type TrustNotificationKind =
  | 'MIX_NOTICE'
  | 'MIX_HIDDEN'
  | 'MIX_REMOVED'
  | 'MIX_RESTORED'
  | 'NOTICE_COUNTERED'
  | 'NOTICE_DECIDED'
  | 'WARNED'
  | 'REPORT_DECIDED';
export type NotificationKind = FollowCode | 'CLAIM_APPROVED' | 'CLAIM_REJECTED' | TrustNotificationKind;
const isFollowKind = (kind: NotificationKind): kind is FollowCode => kind === 'FOLLOWED' || kind === 'UNFOLLOWED';

/** The member a notification is about, as the recipient sees them. */
export interface FollowerSummary {
  id: string;
  userName: string | null;
  displayName: string;
  imageUrl: string | null;
  userType: UserTypeCode;
  /** Whole kilometres between the follower's cell and the recipient's; null when either location is unknown. */
  distanceKm: number | null;
}

/** A notification as plain data (dates as ISO text), so it crosses the PubSub unchanged. */
export interface NotificationView {
  id: string;
  kind: NotificationKind;
  detail: string | null;
  createdAt: string;
  readAt: string | null;
  actor: FollowerSummary;
  cursor: string;
}

/** A follow event for its recipient: the notification kept for it, and how many they have not read yet. */
export interface FollowEvent {
  recipientId: string;
  notification: NotificationView;
  unreadCount: number;
}

export interface NotificationPage extends PageEnds {
  totalCount: number;
  unreadCount: number;
  items: NotificationView[];
}

export type FollowEventListener = (event: FollowEvent) => void;

interface NotificationRow {
  id: string;
  recipient_id: string;
  kind: NotificationKind;
  detail: string | null;
  created_at: Date;
  read_at: Date | null;
  sort_key: string;
  actor_id: string;
  user_name: string | null;
  display_name: string;
  user_image: string | null;
  user_type: string;
  distance_m: number | null;
}

const NOTIFICATION_COLUMNS = `n.id, n.recipient_id, n.kind, n.detail, n.created_at, n.read_at, ${timestampKeySql('n.created_at')} as sort_key,
  a.id as actor_id, a.user_name, a.display_name, a.user_image, a.user_type,
  ${cellDistanceSql('a', 'r')} as distance_m`;
/** A suspended member's follows are gone from others' notifications while it lasts (docs/trust.md#suspensions). */
const ACTOR_ACTIVE = activeMemberSql('a');
const NOTIFICATION_FROM = 'notification n join app_user a on a.id = n.actor_id join app_user r on r.id = n.recipient_id';

/**
 * Follow notifications: every follow and unfollow is kept for the member it happened to (so a missed live event is not
 * lost), listed newest first with an unread count, and announced live to that member alone.
 */
export class NotificationsService {
  private readonly listeners = new Set<FollowEventListener>();

  constructor(
    private readonly orm: Orm,
    private readonly imageUrl: (user: Pick<IUser, 'userImage'>) => string | null,
  ) {}

  private em(): EntityManager {
    return this.orm.em.fork() as EntityManager;
  }

  /** Called with every follow event once it is stored (GraphQL subscriptions listen here). */
  onFollowEvent(listener: FollowEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Keeps a follow event for its recipient, in the caller's transaction (the follow and its notification land together). */
  async record(
    em: EntityManager,
    event: { recipientId: string; actorId: string; kind: NotificationKind; detail?: string | null },
  ): Promise<string> {
    const [row] = await em.execute<{ id: string }[]>(
      `insert into notification (id, recipient_id, actor_id, kind, detail, created_at)
       values (gen_random_uuid(), ?, ?, ?, ?, clock_timestamp()) returning id`,
      [event.recipientId, event.actorId, event.kind, event.detail ?? null],
    );
    return row.id;
  }

  /** Tells the recipient's subscribers about a stored notification (after its transaction committed). */
  async announce(notificationId: string): Promise<void> {
    if (this.listeners.size === 0) return;
    const em = this.em();
    const [row] = await em.execute<NotificationRow[]>(`select ${NOTIFICATION_COLUMNS} from ${NOTIFICATION_FROM} where n.id = ?`, [
      notificationId,
    ]);
    // The live stream is of follow events; other notices reach the list and its unread count on the next read.
    if (!row || !isFollowKind(row.kind)) return;
    const event: FollowEvent = {
      recipientId: row.recipient_id,
      notification: this.view(row),
      unreadCount: await this.unreadCount(row.recipient_id),
    };
    for (const listener of this.listeners) listener(event);
  }

  private view(row: NotificationRow): NotificationView {
    return {
      id: row.id,
      kind: row.kind,
      detail: row.detail,
      createdAt: new Date(row.created_at).toISOString(),
      readAt: row.read_at ? new Date(row.read_at).toISOString() : null,
      cursor: encodeCursor([row.sort_key, row.id]),
      actor: {
        id: row.actor_id,
        userName: row.user_name,
        displayName: row.display_name,
        imageUrl: this.imageUrl({ userImage: row.user_image }),
        userType: isUserTypeCode(row.user_type) ? row.user_type : DEFAULT_USER_TYPE,
        distanceKm: wholeKm(row.distance_m),
      },
    };
  }

  /** The member's notifications, newest first, with how many there are and how many are unread. */
  async page(viewerId: string, request: { first?: unknown; after?: unknown; last?: unknown; before?: unknown }): Promise<NotificationPage> {
    const window = parseInput(notificationPageInput, request);
    const { beyondCursor, order } = keysetReading(window, true);
    const em = this.em();
    const [counts] = await em.execute<{ total: number; unread: number }[]>(
      `select count(*)::int as total, (count(*) filter (where read_at is null))::int as unread
         from notification n join app_user a on a.id = n.actor_id where recipient_id = ? and ${ACTOR_ACTIVE}`,
      [viewerId],
    );
    const rows = await em.execute<NotificationRow[]>(
      `select ${NOTIFICATION_COLUMNS} from ${NOTIFICATION_FROM}
        where n.recipient_id = ? and ${ACTOR_ACTIVE} ${window.cursor ? `and (n.created_at, n.id) ${beyondCursor} (?::timestamptz, ?::uuid)` : ''}
        order by n.created_at ${order}, n.id ${order}
        limit ?`,
      [viewerId, ...(window.cursor ?? []), window.size + 1],
    );
    const page = pageOfRows(rows, window);
    return {
      totalCount: counts.total,
      unreadCount: counts.unread,
      items: page.rows.map((row) => this.view(row)),
      hasNextPage: page.hasNextPage,
      hasPreviousPage: page.hasPreviousPage,
    };
  }

  async unreadCount(viewerId: string): Promise<number> {
    const [row] = await this.em().execute<{ count: number }[]>(
      `select count(*)::int as count from notification n join app_user a on a.id = n.actor_id
        where recipient_id = ? and read_at is null and ${ACTOR_ACTIVE}`,
      [viewerId],
    );
    return row.count;
  }

  /** Marks one of the member's notifications read (again changes nothing) and answers it. */
  async markRead(viewerId: string, rawId: unknown): Promise<NotificationView> {
    const id = parseInput(notificationIdInput, rawId);
    const em = this.em();
    const [owned] = id ? await em.execute<{ recipient_id: string }[]>('select recipient_id from notification where id = ?', [id]) : [];
    notificationPolicy.assertIsRecipient(owned?.recipient_id, viewerId);
    await em.execute('update notification set read_at = coalesce(read_at, now()) where id = ?', [id]);
    const [row] = await em.execute<NotificationRow[]>(`select ${NOTIFICATION_COLUMNS} from ${NOTIFICATION_FROM} where n.id = ?`, [id]);
    return this.view(row);
  }

  /** Marks every unread notification of the member read; answers how many it marked. */
  async markAllRead(viewerId: string): Promise<number> {
    const rows = await this.em().execute<{ id: string }[]>(
      'update notification set read_at = now() where recipient_id = ? and read_at is null returning id',
      [viewerId],
    );
    return rows.length;
  }
}
