import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { PageInfoObject } from '../../graphql/connection.js';
import { USER_TYPES, type UserTypeCode } from '../../shared/domain.js';
import { FollowCodeEnum } from '../follows/follows.types.js';
import { UserTypeEnum } from '../users/user.types.js';
import type { FollowerSummary, NotificationView } from './notifications.service.js';

@ObjectType('FollowerSummary', { description: 'The member a follow event is about, as its recipient sees them.' })
export class FollowerSummaryObject {
  @Field(() => ID) id!: string;
  @Field(() => String, { nullable: true }) userName!: string | null;
  @Field(() => String) displayName!: string;
  @Field(() => String, { nullable: true, description: 'A 400x400 JPEG the browser can load directly.' }) imageUrl!: string | null;
  @Field(() => UserTypeEnum) userType!: UserTypeCode;
  @Field(() => String, { description: 'The user type as shown to people.' }) userTypeLabel!: string;
  @Field(() => Int, { nullable: true, description: 'Whole kilometres between this member’s cell and the recipient’s; null when unknown.' })
  distanceKm!: number | null;

  static from(summary: FollowerSummary): FollowerSummaryObject {
    return Object.assign(new FollowerSummaryObject(), summary, { userTypeLabel: USER_TYPES[summary.userType] });
  }
}

export enum NotificationKindEnum {
  FOLLOWED = 'FOLLOWED',
  UNFOLLOWED = 'UNFOLLOWED',
  CLAIM_APPROVED = 'CLAIM_APPROVED',
  CLAIM_REJECTED = 'CLAIM_REJECTED',
  MIX_NOTICE = 'MIX_NOTICE',
  MIX_HIDDEN = 'MIX_HIDDEN',
  MIX_REMOVED = 'MIX_REMOVED',
  MIX_RESTORED = 'MIX_RESTORED',
  NOTICE_COUNTERED = 'NOTICE_COUNTERED',
  NOTICE_DECIDED = 'NOTICE_DECIDED',
  WARNED = 'WARNED',
  REPORT_DECIDED = 'REPORT_DECIDED',
}
registerEnumType(NotificationKindEnum, { name: 'NotificationKind', description: 'What a notification tells.' });

@ObjectType('Notification', {
  description: 'Something that happened to the signed-in member: someone followed or unfollowed them, or their creator claim was decided.',
})
export class NotificationObject {
  @Field(() => ID) id!: string;
  @Field(() => NotificationKindEnum) kind!: NotificationKindEnum;
  @Field(() => String, { nullable: true, description: 'The creator or label name of a claim decision.' }) detail!: string | null;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date, { nullable: true }) readAt!: Date | null;
  @Field(() => FollowerSummaryObject, { description: 'Who followed or unfollowed.' }) actor!: FollowerSummaryObject;

  static from(view: NotificationView): NotificationObject {
    return Object.assign(new NotificationObject(), {
      id: view.id,
      kind: view.kind as NotificationKindEnum,
      detail: view.detail,
      createdAt: new Date(view.createdAt),
      readAt: view.readAt ? new Date(view.readAt) : null,
      actor: FollowerSummaryObject.from(view.actor),
    });
  }
}

@ObjectType('NotificationEdge')
export class NotificationEdgeObject {
  @Field(() => NotificationObject) node!: NotificationObject;
  @Field(() => String) cursor!: string;
}

@ObjectType('NotificationConnection')
export class NotificationConnectionObject {
  @Field(() => Int) totalCount!: number;
  @Field(() => Int, { description: 'How many of all the member’s notifications are unread.' }) unreadCount!: number;
  @Field(() => [NotificationEdgeObject]) edges!: NotificationEdgeObject[];
  @Field(() => [NotificationObject]) nodes!: NotificationObject[];
  @Field(() => PageInfoObject) pageInfo!: PageInfoObject;
}

@ObjectType('FollowEvent', { description: 'Someone followed or unfollowed the signed-in member, as it happened.' })
export class FollowEventObject {
  @Field(() => FollowCodeEnum) kind!: FollowCodeEnum;
  @Field(() => FollowerSummaryObject) follower!: FollowerSummaryObject;
  @Field(() => NotificationObject, { description: 'The notification kept for it.' }) notification!: NotificationObject;
  @Field(() => Int, { description: 'The member’s unread notifications, this one included.' }) unreadCount!: number;
}
