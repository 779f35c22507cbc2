import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../db/orm.js';
import { encodeCursor, isUuid, type PageEnds } from '../../shared/cursor.js';
import { cellDistanceSql, wholeKm } from '../../shared/geo.js';
import { parseInput } from '../../shared/inputs.js';
import { activeMemberSql, type IUser, User } from '../users/index.js';
import { FollowErrors } from './follow.errors.js';
import { type FollowPageRequest, type FollowWindow, memberIdInput, parseFollowPage, userNameInput } from './follow.inputs.js';
import { followPolicy } from './follow.policy.js';

export type FollowCode = 'FOLLOWED' | 'UNFOLLOWED';
export type FollowDirection = 'following' | 'followers';

export interface FollowEntry {
  user: IUser;
  /** Where this entry sits in its list: pass as `after` for the entries that follow it, `before` for those before. */
  cursor: string;
  /** Whole kilometres between the viewer's cell and the member's; null when either location is unknown. */
  distanceKm: number | null;
  /** Whether the viewer follows this member (a follower may not be followed back); null for the viewer or nobody. */
  isFollowing: boolean | null;
}

export interface FollowPage extends PageEnds {
  count: number;
  results: FollowEntry[];
}

export interface FollowCounts {
  followers: number;
  following: number;
}

/** The positions a window covers in a list of `count` entries: after the cursor, or the `size` just before it. */
function followSlice(window: FollowWindow, count: number): { offset: number; limit: number } {
  if ('offset' in window) return window;
  if (!window.backward) return { offset: window.cursor === null ? 0 : window.cursor + 1, limit: window.size };
  const end = window.cursor === null ? count : Math.min(window.cursor, count);
  const offset = Math.max(0, end - window.size);
  return { offset, limit: end - offset };
}

/** Both members of a follow that changed, for those who watch either one's profile (their counts changed). */
export interface FollowChange {
  follower: { id: string; userName: string | null };
  followee: { id: string; userName: string | null };
}

export type FollowChangeListener = (change: FollowChange) => void;

/** Where the followed member is told (the notifications module; services.ts hands it in). */
export interface FollowNotices {
  /** Records the notice in the toggle's transaction, so a toggle is told exactly once; answers the notice's id. */
  record(em: EntityManager, notice: { recipientId: string; actorId: string; kind: FollowCode }): Promise<string>;
  /** Tells the recipient live, once the toggle is committed. */
  announce(noticeId: string): Promise<void>;
}

/** Follows: the toggle (with its notification), the paged follower/following lists with distances, and counts. */
export class FollowsService {
  private readonly listeners = new Set<FollowChangeListener>();

  constructor(
    private readonly orm: Orm,
    private readonly notices: FollowNotices,
  ) {}

  /** Called after every follow or unfollow (profile subscriptions listen here: the follower counts changed). */
  onFollowChanged(listener: FollowChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private em(): EntityManager {
    return this.orm.em.fork() as EntityManager;
  }

  /**
   * Follows when not following yet, unfollows otherwise; nobody follows themselves. Either way the followed member is
   * notified: the notification is kept in the same transaction, then announced.
   */
  async toggle(viewerId: string, rawTargetId: unknown): Promise<FollowCode> {
    const targetId = parseInput(memberIdInput, rawTargetId);
    if (targetId === viewerId) throw FollowErrors.notYourself();
    if (!targetId) throw FollowErrors.memberNotFound();
    // Statements through the transaction's own EntityManager: `getConnection().execute` would take a second pool
    // connection per toggle, outside the transaction, and ten toggles at once would wait on each other for good.
    const done = await this.em().transactional(async (txEm) => {
      const em = txEm as EntityManager;
      const members = await em.execute<{ id: string; user_name: string | null }[]>(
        'select id, user_name from app_user where id in (?, ?)',
        [targetId, viewerId],
      );
      const target = members.find((member) => member.id === targetId);
      if (!target) throw FollowErrors.memberNotFound();
      // Toggles of one pair queue up, so each one sees the last one's result and is notified once.
      await em.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`follow:${viewerId}:${targetId}`]);
      const removed = await em.execute<{ follower_id: string }[]>(
        'delete from follow where follower_id = ? and followee_id = ? returning follower_id',
        [viewerId, targetId],
      );
      const code: FollowCode = removed.length > 0 ? 'UNFOLLOWED' : 'FOLLOWED';
      if (code === 'FOLLOWED') {
        await em.execute('insert into follow (follower_id, followee_id, created_at) values (?, ?, now())', [viewerId, targetId]);
      }
      const notificationId = await this.notices.record(em, { recipientId: targetId, actorId: viewerId, kind: code });
      const follower = members.find((member) => member.id === viewerId);
      return {
        code,
        notificationId,
        change: {
          follower: { id: viewerId, userName: follower?.user_name ?? null },
          followee: { id: targetId, userName: target.user_name },
        },
      };
    });
    await this.notices.announce(done.notificationId);
    for (const listener of this.listeners) listener(done.change);
    return done.code;
  }

  /**
   * A page of the members the viewer follows, or who follow them, newest first, with each member's distance from the
   * viewer (docs/follows.md#who-may-see-the-lists: the list of the member named, who must be the viewer).
   */
  async page(rawUserName: unknown, direction: FollowDirection, pageRequest: FollowPageRequest, viewerId: string): Promise<FollowPage> {
    const userName = parseInput(userNameInput, rawUserName);
    const [owner] = await this.em()
      .getConnection()
      .execute<{ id: string }[]>(`select id from app_user u where lower(user_name) = lower(?) and ${activeMemberSql('u')}`, [userName]);
    if (!owner) throw FollowErrors.memberNotFound();
    followPolicy.assertCanList(owner.id, viewerId);
    return this.listPage(owner.id, direction, pageRequest, viewerId);
  }

  /** The same page of the viewer's own lists. */
  ownPage(viewerId: string, direction: FollowDirection, pageRequest: FollowPageRequest): Promise<FollowPage> {
    return this.listPage(viewerId, direction, pageRequest, viewerId);
  }

  private async listPage(
    ownerId: string,
    direction: FollowDirection,
    pageRequest: FollowPageRequest,
    viewerId: string,
  ): Promise<FollowPage> {
    const window = parseFollowPage(pageRequest);
    const em = this.em();
    const connection = em.getConnection();
    const owner = { id: ownerId };

    const [listed, anchor] = direction === 'following' ? ['followee_id', 'follower_id'] : ['follower_id', 'followee_id'];
    // A suspended member is gone from every list (docs/trust.md#suspensions), and from its count.
    const [{ count }] = await connection.execute<{ count: string }[]>(
      `select count(*) from follow f join app_user u on u.id = f.${listed} where f.${anchor} = ? and ${activeMemberSql('u')}`,
      [owner.id],
    );
    const { offset, limit } = followSlice(window, Number(count));
    const rows = await connection.execute<{ id: string; distance_m: number | null; is_following: boolean | null }[]>(
      `select u.id, ${cellDistanceSql('u', 'v')} as distance_m,
              case when v.id is null or v.id = u.id then null
                   else exists(select 1 from follow mine where mine.follower_id = v.id and mine.followee_id = u.id) end as is_following
         from follow f
         join app_user u on u.id = f.${listed}
         left join app_user v on v.id = ?
        where f.${anchor} = ? and ${activeMemberSql('u')}
        order by f.created_at desc, u.id
        limit ${limit} offset ${offset}`,
      [viewerId, owner.id],
    );
    const users = new Map((await em.find(User, { id: { $in: rows.map((row) => row.id) } })).map((user) => [user.id, user]));
    return {
      count: Number(count),
      hasNextPage: offset + rows.length < Number(count),
      hasPreviousPage: offset > 0,
      results: rows.map((row, index) => ({
        user: users.get(row.id) as IUser,
        cursor: encodeCursor([String(offset + index)]),
        distanceKm: wholeKm(row.distance_m),
        isFollowing: row.is_following,
      })),
    };
  }

  /** Follower and following counts for many members in one query. */
  async countsOf(userIds: readonly string[]): Promise<Map<string, FollowCounts>> {
    const ids = userIds.filter(isUuid);
    if (ids.length === 0) return new Map();
    const rows = await this.em()
      .getConnection()
      .execute<{ id: string; followers: string; following: string }[]>(
        `select u.id,
                (select count(*) from follow f join app_user x on x.id = f.follower_id where f.followee_id = u.id and ${activeMemberSql('x')}) as followers,
                (select count(*) from follow f join app_user x on x.id = f.followee_id where f.follower_id = u.id and ${activeMemberSql('x')}) as following
           from app_user u where u.id in (${ids.map(() => '?').join(', ')})`,
        ids,
      );
    return new Map(rows.map((row) => [row.id, { followers: Number(row.followers), following: Number(row.following) }]));
  }

  /** The members someone follows, newest first (the logged-in user's `following`). */
  async followingOf(userId: string): Promise<IUser[]> {
    const em = this.em();
    const rows = await em.getConnection().execute<{ followee_id: string }[]>(
      `select f.followee_id from follow f join app_user x on x.id = f.followee_id where f.follower_id = ? and ${activeMemberSql('x')}
          order by f.created_at desc`,
      [userId],
    );
    const users = new Map((await em.find(User, { id: { $in: rows.map((row) => row.followee_id) } })).map((user) => [user.id, user]));
    return rows.map((row) => users.get(row.followee_id) as IUser);
  }
}
