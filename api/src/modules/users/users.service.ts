import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../db/orm.js';
import { cellDistanceSql, wholeKm } from '../../shared/geo.js';
import { parseInput } from '../../shared/inputs.js';
import { PROFILE_IMAGE_RULE } from '../../shared/rules.js';
import { toSquareJpeg } from '../../storage/images.js';
import { FOLDERS, newFileName, objectKey, type StorageDriver } from '../../storage/storage.js';
import { type IUser, User } from './user.entity.js';
import { UserErrors } from './user.errors.js';
import {
  agreedInput,
  locationInput,
  optInInput,
  type ProfileChanges,
  profileChangesInput,
  searchInput,
  userNameInput,
  userNameLookupInput,
  userTypeInput,
} from './user.inputs.js';
import { activeMemberSql, userPolicy } from './user.policy.js';

export interface ProfileView {
  user: IUser;
  /** Null when nobody is signed in, or when viewing oneself. */
  isFollowing: boolean | null;
  /** Whole kilometres between the viewer's cell and the member's; null when either location is unknown or when viewing oneself. */
  distanceKm: number | null;
}

export interface MemberSummary {
  userName: string;
  displayName: string;
}

export const SEARCH_LIMIT = 8;

export type ProfileListener = (user: IUser) => void;

/** Profiles, the sign-up steps after the account exists, and member search. */
export class UsersService {
  private readonly listeners = new Set<ProfileListener>();

  constructor(
    private readonly orm: Orm,
    private readonly storage: StorageDriver,
    /** Spends one of the member's location changes, or throws the 429 that names the limit. */
    private readonly limitLocationChange: (memberId: string) => Promise<void>,
  ) {}

  private em(): EntityManager {
    return this.orm.em.fork() as EntityManager;
  }

  /** Called after every profile change (GraphQL subscriptions listen here). */
  onProfileChanged(listener: ProfileListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async get(userId: string): Promise<IUser> {
    const user = await this.em().findOne(User, userId);
    if (!user) throw UserErrors.notFound();
    return user;
  }

  private async change(userId: string, apply: (user: IUser, em: EntityManager) => Promise<void> | void): Promise<IUser> {
    const user = await this.em().transactional(async (em) => {
      const found = await em.findOne(User, userId);
      if (!found) throw UserErrors.notFound();
      await apply(found, em as EntityManager);
      return found;
    });
    for (const listener of this.listeners) listener(user);
    return user;
  }

  setUserName(userId: string, rawUserName: unknown): Promise<IUser> {
    const userName = parseInput(userNameInput, rawUserName);
    return this.change(userId, async (user, em) => {
      const taken = await em.execute<{ id: string }[]>('select id from app_user where lower(user_name) = lower(?) and id <> ?', [
        userName,
        userId,
      ]);
      if (taken.length > 0) throw UserErrors.userNameTaken(userName);
      user.userName = userName;
    }).catch((error) => {
      // Two sign-ups racing for one name: the unique index decides, the loser gets the same clear message.
      if (String(error?.message).includes('app_user_user_name_lower_unique')) throw UserErrors.userNameTaken(userName);
      throw error;
    });
  }

  /** Keeps the point as given (others see its cell); each change, not a repeat of the same point, counts against the limit. */
  setLocation(userId: string, rawLocation: unknown): Promise<IUser> {
    const location = parseInput(locationInput, rawLocation);
    return this.change(userId, async (user) => {
      if (user.latitude === location.latitude && user.longitude === location.longitude) return;
      await this.limitLocationChange(userId);
      user.latitude = location.latitude;
      user.longitude = location.longitude;
    });
  }

  setUserType(userId: string, rawUserType: unknown): Promise<IUser> {
    const userType = parseInput(userTypeInput, rawUserType);
    return this.change(userId, (user) => {
      user.userType = userType;
    });
  }

  agreeToConduct(userId: string, rawAgreed: unknown): Promise<IUser> {
    const agreed = parseInput(agreedInput, rawAgreed);
    return this.change(userId, (user) => {
      user.isAgreedToConduct = agreed;
    });
  }

  setOptIn(viewerId: string, targetUserId: unknown, rawHasOptedIn: unknown): Promise<IUser> {
    const hasOptedIn = parseInput(optInInput, rawHasOptedIn);
    userPolicy.assertOwnOptIn(viewerId, targetUserId);
    return this.change(viewerId, (user) => {
      user.hasOptedIn = hasOptedIn;
    });
  }

  async updateProfile(userId: string, rawChanges: ProfileChanges): Promise<IUser> {
    const { displayName, bio, userType, image: upload } = parseInput(profileChangesInput, rawChanges);
    const image = upload ? await toSquareJpeg(upload, PROFILE_IMAGE_RULE) : undefined;

    const newImageKey = image ? objectKey(FOLDERS.profileImages, newFileName('jpg')) : undefined;
    if (image && newImageKey) await this.storage.put(newImageKey, image);
    let previousImage: string | null = null;
    try {
      const user = await this.change(userId, (user) => {
        if (displayName !== undefined) user.displayName = displayName;
        if (bio !== undefined) user.bio = bio;
        if (userType !== undefined) user.userType = userType;
        if (newImageKey) {
          previousImage = user.userImage ?? null;
          user.userImage = newImageKey.split('/').pop() ?? null;
        }
      });
      if (previousImage) await this.storage.delete(objectKey(FOLDERS.profileImages, previousImage)).catch(() => undefined);
      return user;
    } catch (error) {
      if (newImageKey) await this.storage.delete(newImageKey);
      throw error;
    }
  }

  imageUrl(user: Pick<IUser, 'userImage'>): string | null {
    return user.userImage ? this.storage.publicUrl(objectKey(FOLDERS.profileImages, user.userImage)) : null;
  }

  async profile(rawUserName: unknown, viewerId: string | null): Promise<ProfileView> {
    const userName = parseInput(userNameLookupInput, rawUserName);
    const em = this.em();
    const [row] = await em.getConnection().execute<{ id: string; is_following: boolean | null; distance_m: number | null }[]>(
      `select u.id,
              case when v.id is null or v.id = u.id then null
                   else exists (select 1 from follow f where f.follower_id = v.id and f.followee_id = u.id) end as is_following,
              case when v.id is null or v.id = u.id then null
                   else ${cellDistanceSql('u', 'v')} end as distance_m
         from app_user u left join app_user v on v.id = ?
        where lower(u.user_name) = lower(?) and ${activeMemberSql('u')}`,
      [viewerId, userName],
    );
    if (!row) throw UserErrors.notFound();
    const user = await em.findOneOrFail(User, row.id);
    return { user, isFollowing: row.is_following, distanceKm: wholeKm(row.distance_m) };
  }

  /** Members whose display name or user name contains the text, case-insensitive; at most eight, best matches first. */
  async search(rawText: unknown): Promise<MemberSummary[]> {
    const text = parseInput(searchInput, rawText);
    if (!text) return [];
    const escaped = text.replace(/[\\%_]/g, (c) => `\\${c}`);
    const pattern = `%${escaped}%`;
    const rows = await this.em()
      .getConnection()
      .execute<{ user_name: string; display_name: string }[]>(
        `select user_name, display_name from app_user u
          where user_name is not null and (display_name ilike ? or user_name ilike ?) and ${activeMemberSql('u')}
          order by (lower(display_name) = lower(?) or lower(user_name) = lower(?)) desc,
                   (display_name ilike ? or user_name ilike ?) desc, lower(user_name)
          limit ${SEARCH_LIMIT}`,
        [pattern, pattern, text, text, `${escaped}%`, `${escaped}%`],
      );
    return rows.map((row) => ({ userName: row.user_name, displayName: row.display_name }));
  }
}
