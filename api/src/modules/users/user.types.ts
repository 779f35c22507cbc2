import { Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { NodeInterface } from '../../graphql/node.js';
import type { Services } from '../../services.js';
import { DEFAULT_USER_TYPE, isUserTypeCode, USER_TYPE_CODES, USER_TYPES, type UserTypeCode } from '../../shared/domain.js';
import type { IUser, MemberView } from './user.entity.js';
import { userPolicy } from './user.policy.js';
import type { ProfileView } from './users.service.js';

/** User types as a GraphQL enum (GraphQL names cannot hold '-', hence DJ_CREATOR for 'dj-creator') (docs/rules.md#user-types). */
/** User types as a GraphQL enum: names upper-case (dashes as underscores), values the REST codes (docs/rules.md#user-types). */
export const UserTypeEnum: Record<string, UserTypeCode> = Object.fromEntries(
  USER_TYPE_CODES.map((code) => [code.toUpperCase().replaceAll('-', '_'), code]),
);
registerEnumType(UserTypeEnum, { name: 'UserType', description: 'What a member does (a label only; no permissions differ).' });

@ObjectType('Location')
export class LocationObject {
  @Field(() => Float) latitude!: number;
  @Field(() => Float) longitude!: number;
}

@InputType('LocationInput')
export class LocationInput {
  @Field(() => Float) latitude!: number;
  @Field(() => Float) longitude!: number;
}

const userTypeOf = (code: string): UserTypeCode => (isUserTypeCode(code) ? code : DEFAULT_USER_TYPE);

@ObjectType('User', { description: 'A member as anyone may see them.', implements: NodeInterface })
export class UserObject {
  @Field(() => ID) id!: string;
  @Field(() => String, { nullable: true }) userName!: string | null;
  @Field(() => String) displayName!: string;
  @Field(() => UserTypeEnum) userType!: UserTypeCode;
  @Field(() => String, { description: 'The user type as shown to people.' }) userTypeLabel!: string;
  @Field(() => String) bio!: string;
  @Field(() => String, { nullable: true, description: 'A 400x400 JPEG the browser can load directly.' }) imageUrl!: string | null;
  @Field(() => Date) createdAt!: Date;
  @Field(() => LocationObject, {
    nullable: true,
    description: 'The centre of the grid cell, about 2 km across, that holds the member’s place; never the place itself.',
  })
  location!: LocationObject | null;
  @Field(() => Boolean, {
    nullable: true,
    description: 'Whether the signed-in viewer follows this member; null when signed out or for oneself.',
  })
  isFollowing!: boolean | null;
  @Field(() => Int, {
    nullable: true,
    description: 'Whole kilometres between the viewer’s cell and this member’s; null when unknown or for oneself.',
  })
  distanceKm!: number | null;

  static from(services: Services, user: MemberView, view?: Omit<ProfileView, 'user'>): UserObject {
    const userType = userTypeOf(user.userType);
    return Object.assign(new UserObject(), {
      id: user.id,
      userName: user.userName ?? null,
      displayName: user.displayName,
      userType,
      userTypeLabel: USER_TYPES[userType as UserTypeCode],
      bio: user.bio,
      imageUrl: services.users.imageUrl(user),
      createdAt: user.createdAt,
      location: userPolicy.publicLocation(user),
      isFollowing: view?.isFollowing ?? null,
      distanceKm: view?.distanceKm ?? null,
    });
  }
}

@ObjectType('Viewer', { description: 'The signed-in member, with what only they may see.' })
export class ViewerObject extends UserObject {
  @Field(() => LocationObject, { nullable: true, description: 'The place exactly as the member gave it (others see its cell).' })
  override location!: LocationObject | null;
  @Field(() => String) email!: string;
  @Field(() => Boolean) hasOptedIn!: boolean;
  @Field(() => Boolean) isAgreedToConduct!: boolean;
  @Field(() => ID, { nullable: true }) currentMixId!: string | null;
  @Field(() => Float, { description: 'Seconds into the current mix.' }) currentMixPosition!: number;

  static fromUser(services: Services, user: IUser): ViewerObject {
    return Object.assign(new ViewerObject(), UserObject.from(services, user), {
      location: userPolicy.ownLocation(user),
      email: user.email,
      hasOptedIn: user.hasOptedIn,
      isAgreedToConduct: user.isAgreedToConduct,
      currentMixId: user.currentMix?.id ?? null,
      currentMixPosition: user.currentMixPos,
    });
  }
}

@ObjectType('MemberSummary')
export class MemberSummaryObject {
  @Field(() => String) userName!: string;
  @Field(() => String) displayName!: string;
}

@InputType('ProfileInput')
export class ProfileInput {
  @Field(() => String, { nullable: true }) displayName?: string;
  @Field(() => UserTypeEnum, { nullable: true }) userType?: UserTypeCode;
  @Field(() => String, { nullable: true }) bio?: string;
}
