import { randomUUID } from 'node:crypto';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { DEFAULT_USER_TYPE } from '../../shared/domain.js';
import { BIO_MAX, DISPLAY_NAME_MAX, EMAIL_MAX, USER_NAME_RULE } from '../../shared/rules.js';
import { Mix } from '../mixes/mix.entity.js';

export const User = defineEntity({
  name: 'User',
  tableName: 'app_user',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    email: p.string().length(EMAIL_MAX).unique(),
    passwordHash: p.string().length(72).hidden(),
    hasOptedIn: p.boolean().default(false),
    // Unique regardless of case: enforced by the lower(user_name) index in the migration.
    userName: p.string().length(USER_NAME_RULE.maxLength).nullable(),
    displayName: p.string().length(DISPLAY_NAME_MAX).default(''),
    userType: p.string().length(20).default(DEFAULT_USER_TYPE),
    bio: p.string().length(BIO_MAX).default(''),
    userImage: p.string().length(120).nullable(),
    // Where the member is, as they gave it: shown to them alone (see userPolicy.ownLocation).
    latitude: p.double().$type<number>().runtimeType('number').nullable(),
    longitude: p.double().$type<number>().runtimeType('number').nullable(),
    // The centre of the ~2 km grid cell holding that point (Migration20261204000000_location_cells), computed by
    // PostgreSQL on every write: all that others see, and all that distances and radius filters are measured from.
    cellLatitude: p.double().$type<number>().runtimeType('number').generated('geo_cell_latitude(latitude) stored').nullable(),
    cellLongitude: p.double().$type<number>().runtimeType('number').generated('geo_cell_longitude(latitude, longitude) stored').nullable(),
    cellGeo: p
      .string()
      .columnType('earth')
      .generated('geo_earth(geo_cell_latitude(latitude), geo_cell_longitude(latitude, longitude)) stored')
      .nullable()
      .lazy()
      .hidden(),
    isAgreedToConduct: p.boolean().default(false),
    currentMix: () => p.manyToOne(Mix).nullable().deleteRule('set null'),
    currentMixPos: p.double().$type<number>().runtimeType('number').default(0),
    // Set by a successful password check; lets the documented two-step change (check, then update) proceed without re-sending the old password.
    passwordCheckedAt: p.datetime().nullable(),
    // A moderator's suspension (docs/trust.md#suspensions): while it lasts the member, their profile and their mixes
    // are gone for everyone and they cannot sign in; no end (null until) lasts until a moderator restores them.
    suspendedAt: p.datetime().nullable(),
    suspendedUntil: p.datetime().nullable(),
    suspensionReason: p.text().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  indexes: [
    // The few suspended members, as moderators list them (docs/trust.md#suspensions).
    {
      name: 'app_user_suspended_idx',
      expression: 'create index "app_user_suspended_idx" on "app_user" ("id") where "suspended_at" is not null',
    },
    { name: 'app_user_cell_geo_idx', expression: 'create index "app_user_cell_geo_idx" on "app_user" using gist ("cell_geo")' },
    {
      name: 'app_user_search_idx',
      expression: 'create index "app_user_search_idx" on "app_user" using gin ("display_name" gin_trgm_ops, "user_name" gin_trgm_ops)',
    },
  ],
  triggers: [
    {
      name: 'member_mixes_suspension',
      timing: 'after',
      events: ['update'],
      // Copies a member's suspension onto their mixes (see Migration20261227000000_owner_suspension).
      expression:
        'create trigger "member_mixes_suspension" after update of "suspended_at", "suspended_until" on "app_user" for each row execute function member_mixes_suspension()',
    },
  ],
  uniques: [
    {
      name: 'app_user_user_name_lower_unique',
      expression: 'create unique index "app_user_user_name_lower_unique" on "app_user" (lower("user_name"))',
    },
  ],
});
export type IUser = InferEntity<typeof User>;

/**
 * What others see of a member wherever a mix shows its DJ: plain data read in the mix's own statement. Building a
 * managed entity for each card's owner cost about 80 µs (hydration and the identity map), a third of a feed page's API
 * time, for fields nobody changes there.
 */
export type MemberView = Pick<
  IUser,
  'id' | 'userName' | 'displayName' | 'userType' | 'bio' | 'userImage' | 'createdAt' | 'cellLatitude' | 'cellLongitude'
>;
