import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import type { Orm } from '../../db/orm.js';
import { isUserTypeCode, USER_TYPE_CODES, type UserTypeCode } from '../../shared/domain.js';
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError } from '../../shared/errors.js';
import { bioSchema, displayNameSchema, firstMessage, userNameSchema } from '../../shared/validation.js';
import { PROFILE_IMAGE_RULE, toSquareJpeg } from '../media/images.js';
import { FOLDERS, newFileName, objectKey, type StorageDriver } from '../media/storage.js';
import { Mix } from '../mixes/mix.entity.js';
import { type IUser, User } from './user.entity.js';

export interface Location {
  latitude: number;
  longitude: number;
}

export interface ProfileView {
  user: IUser;
  /** Null when nobody is signed in, or when viewing oneself. */
  isFollowing: boolean | null;
  /** Kilometres from the viewer; null when either location is unknown or when viewing oneself. */
  distanceKm: number | null;
}

export interface MemberSummary {
  userName: string;
  displayName: string;
}

export interface ProfileChanges {
  displayName?: string;
  userType?: string;
  bio?: string;
  image?: Buffer;
}

export const SEARCH_LIMIT = 8;

const locationSchema = z.object({
  latitude: z
    .number({ error: 'latitude must be a number' })
    .min(-90, 'latitude must be between -90 and 90')
    .max(90, 'latitude must be between -90 and 90'),
  longitude: z
    .number({ error: 'longitude must be a number' })
    .min(-180, 'longitude must be between -180 and 180')
    .max(180, 'longitude must be between -180 and 180'),
});

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new InvalidInputError(firstMessage(result.error));
  return result.data;
}

export function parseUserType(value: unknown): UserTypeCode {
  if (!isUserTypeCode(value)) throw new InvalidInputError(`Unknown user type; use one of: ${USER_TYPE_CODES.join(', ')}`);
  return value;
}

export function parseLocation(value: unknown): Location {
  return parse(locationSchema, value);
}

export type ProfileListener = (user: IUser) => void;

/** Profiles, the sign-up steps after the account exists, and member search. */
export class UsersService {
  private readonly listeners = new Set<ProfileListener>();

  constructor(
    private readonly orm: Orm,
    private readonly storage: StorageDriver,
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
    if (!user) throw new NotFoundError('User not found');
    return user;
  }

  private async change(userId: string, apply: (user: IUser, em: EntityManager) => Promise<void> | void): Promise<IUser> {
    const user = await this.em().transactional(async (em) => {
      const found = await em.findOne(User, userId);
      if (!found) throw new NotFoundError('User not found');
      await apply(found, em as EntityManager);
      return found;
    });
    for (const listener of this.listeners) listener(user);
    return user;
  }

  setUserName(userId: string, rawUserName: unknown): Promise<IUser> {
    const userName = parse(userNameSchema, rawUserName);
    return this.change(userId, async (user, em) => {
      const taken = await em
        .getConnection()
        .execute<{ id: string }[]>('select id from app_user where lower(user_name) = lower(?) and id <> ?', [userName, userId]);
      if (taken.length > 0) throw new ConflictError(`The username ${userName} is already taken`);
      user.userName = userName;
    }).catch((error) => {
      // Two sign-ups racing for one name: the unique index decides, the loser gets the same clear message.
      if (String(error?.message).includes('app_user_user_name_lower_unique'))
        throw new ConflictError(`The username ${userName} is already taken`);
      throw error;
    });
  }

  setLocation(userId: string, rawLocation: unknown): Promise<IUser> {
    const location = parseLocation(rawLocation);
    return this.change(userId, (user) => {
      user.latitude = location.latitude;
      user.longitude = location.longitude;
    });
  }

  setUserType(userId: string, rawUserType: unknown): Promise<IUser> {
    const userType = parseUserType(rawUserType);
    return this.change(userId, (user) => {
      user.userType = userType;
    });
  }

  agreeToConduct(userId: string, agreed: unknown): Promise<IUser> {
    if (typeof agreed !== 'boolean') throw new InvalidInputError('is_agreed_to_conduct must be true or false');
    return this.change(userId, (user) => {
      user.isAgreedToConduct = agreed;
    });
  }

  setOptIn(viewerId: string, targetUserId: string | undefined, hasOptedIn: unknown): Promise<IUser> {
    if (typeof hasOptedIn !== 'boolean') throw new InvalidInputError('has_opted_in must be true or false');
    if (targetUserId && targetUserId !== viewerId) throw new ForbiddenError('You can only change your own opt-in');
    return this.change(viewerId, (user) => {
      user.hasOptedIn = hasOptedIn;
    });
  }

  /** Gives the member a random published, active, unexpired mix as the current mix; none is not an error. */
  assignRandomMix(userId: string): Promise<IUser> {
    return this.change(userId, async (user, em) => {
      const [row] = await em.getConnection().execute<{ id: string }[]>(
        `select id from mix where status = 'published' and deactivated_at is null and (expires_at is null or expires_at > now())
           offset floor(random() * (select count(*) from mix where status = 'published' and deactivated_at is null and (expires_at is null or expires_at > now())))
           limit 1`,
      );
      user.currentMix = row ? em.getReference(Mix, row.id) : null;
      user.currentMixPos = 0;
    });
  }

  async updateProfile(userId: string, changes: ProfileChanges): Promise<IUser> {
    const displayName = changes.displayName === undefined ? undefined : parse(displayNameSchema, changes.displayName);
    const bio = changes.bio === undefined ? undefined : parse(bioSchema, changes.bio);
    const userType = changes.userType === undefined ? undefined : parseUserType(changes.userType);
    const image = changes.image ? await toSquareJpeg(changes.image, PROFILE_IMAGE_RULE) : undefined;

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

  async profile(userName: string, viewerId: string | null): Promise<ProfileView> {
    const em = this.em();
    const [row] = await em.getConnection().execute<{ id: string; is_following: boolean | null; distance_m: number | null }[]>(
      `select u.id,
              case when v.id is null or v.id = u.id then null
                   else exists (select 1 from follow f where f.follower_id = v.id and f.followee_id = u.id) end as is_following,
              case when v.id is null or v.id = u.id then null
                   else earth_distance(geo_earth(u.latitude, u.longitude), geo_earth(v.latitude, v.longitude)) end as distance_m
         from app_user u left join app_user v on v.id = ?
        where lower(u.user_name) = lower(?)`,
      [viewerId, userName],
    );
    if (!row) throw new NotFoundError('User not found');
    const user = await em.findOneOrFail(User, row.id);
    return { user, isFollowing: row.is_following, distanceKm: row.distance_m === null ? null : row.distance_m / 1000 };
  }

  /** Members whose display name or user name contains the text, case-insensitive; at most eight, best matches first. */
  async search(rawText: unknown): Promise<MemberSummary[]> {
    if (typeof rawText !== 'string') throw new InvalidInputError('searchString must be text');
    const text = rawText.trim().slice(0, 50);
    if (!text) return [];
    const escaped = text.replace(/[\\%_]/g, (c) => `\\${c}`);
    const pattern = `%${escaped}%`;
    const rows = await this.em()
      .getConnection()
      .execute<{ user_name: string; display_name: string }[]>(
        `select user_name, display_name from app_user
          where user_name is not null and (display_name ilike ? or user_name ilike ?)
          order by (lower(display_name) = lower(?) or lower(user_name) = lower(?)) desc,
                   (display_name ilike ? or user_name ilike ?) desc, lower(user_name)
          limit ${SEARCH_LIMIT}`,
        [pattern, pattern, text, text, `${escaped}%`, `${escaped}%`],
      );
    return rows.map((row) => ({ userName: row.user_name, displayName: row.display_name }));
  }
}
