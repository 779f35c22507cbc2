import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import type {
  HeldMixView,
  NoticeEventView,
  NoticeView,
  ReportHistoryView,
  ReportView,
  SuspendedMemberView,
  TransparencyMonthView,
  TrustItemView,
  UploadBlockView,
} from './trust.views.js';

export enum ReportTargetKindEnum {
  MIX = 'mix',
  MEMBER = 'member',
}
registerEnumType(ReportTargetKindEnum, { name: 'ReportTargetKind', description: 'What a report is about.' });

export enum ReportReasonEnum {
  COPYRIGHT = 'copyright',
  ABUSE = 'abuse',
  SPAM = 'spam',
  IMPERSONATION = 'impersonation',
  OTHER = 'other',
}
registerEnumType(ReportReasonEnum, { name: 'ReportReason' });

export enum ReportStatusEnum {
  OPEN = 'open',
  DISMISSED = 'dismissed',
  UPHELD = 'upheld',
}
registerEnumType(ReportStatusEnum, { name: 'ReportStatus', description: 'OPEN until a moderator decides; UPHELD says `outcome`.' });

export enum NoticeStatusEnum {
  OPEN = 'open',
  COUNTERED = 'countered',
  RESTORED = 'restored',
  REMOVED = 'removed',
}
registerEnumType(NoticeStatusEnum, { name: 'CopyrightNoticeStatus' });

export enum MixModerationStateEnum {
  HIDDEN = 'hidden',
  REMOVED = 'removed',
}
registerEnumType(MixModerationStateEnum, {
  name: 'MixModerationState',
  description: 'A hold on a mix: hidden from everyone but its owner (HIDDEN may be restored; REMOVED was upheld).',
});

export enum NoticePartyEnum {
  FILER = 'filer',
  OWNER = 'owner',
  MODERATOR = 'moderator',
}
registerEnumType(NoticePartyEnum, { name: 'NoticeParty' });

export enum TrustActionEnum {
  DISMISS = 'dismiss',
  HIDE_MIX = 'hide_mix',
  REMOVE_MIX = 'remove_mix',
  WARN = 'warn',
  SUSPEND_MEMBER = 'suspend_member',
  RESTORE = 'restore',
  REMOVE = 'remove',
  REMOVE_AND_STRIKE = 'remove_and_strike',
}
registerEnumType(TrustActionEnum, {
  name: 'TrustAction',
  description:
    'A moderator’s action on a queue item. Reports: DISMISS, HIDE_MIX, REMOVE_MIX (mix reports), WARN, SUSPEND_MEMBER (the member or the mix’s owner). Copyright notices: RESTORE, REMOVE, REMOVE_AND_STRIKE.',
});

@ObjectType('Report', { description: 'A report of a mix or a member, as its reporter sees it.' })
export class ReportObject {
  @Field(() => ID) id!: string;
  @Field(() => ReportTargetKindEnum) targetKind!: ReportTargetKindEnum;
  @Field(() => ID) targetId!: string;
  @Field(() => String, { nullable: true, description: 'The mix’s title or the member’s name; null once gone.' }) targetName!: string | null;
  @Field(() => ReportReasonEnum) reason!: ReportReasonEnum;
  @Field(() => String, { nullable: true }) note!: string | null;
  @Field(() => ReportStatusEnum) status!: ReportStatusEnum;
  @Field(() => String, { nullable: true, description: 'What was done: hide_mix, remove_mix, warn, suspend_member.' }) outcome!:
    | string
    | null;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date, { nullable: true }) decidedAt!: Date | null;

  static from(view: ReportView): ReportObject {
    return Object.assign(new ReportObject(), view, {
      targetKind: view.targetKind as ReportTargetKindEnum,
      reason: view.reason as ReportReasonEnum,
      status: view.status as ReportStatusEnum,
    });
  }
}

@ObjectType('ReportPage')
export class ReportPageObject {
  @Field(() => Int) totalCount!: number;
  @Field(() => Int) page!: number;
  @Field(() => [ReportObject]) items!: ReportObject[];
}

@ObjectType('NoticeEvent', { description: 'One step of a notice’s history; both parties read it.' })
export class NoticeEventObject {
  @Field(() => String, { description: 'filed, countered, restored, removed, removed_with_strike, ...' }) action!: string;
  @Field(() => NoticePartyEnum) by!: NoticePartyEnum;
  @Field(() => String, { nullable: true }) reason!: string | null;
  @Field(() => Date) at!: Date;

  static from(view: NoticeEventView): NoticeEventObject {
    return Object.assign(new NoticeEventObject(), view, { by: view.by as NoticePartyEnum });
  }
}

@ObjectType('CopyrightNotice', { description: 'A rights holder’s notice on a mix; its filer, the mix’s owner and moderators read it.' })
export class CopyrightNoticeObject {
  @Field(() => ID) id!: string;
  @Field(() => ID) mixId!: string;
  @Field(() => String) mixTitle!: string;
  @Field(() => ID, { nullable: true }) trackId!: string | null;
  @Field(() => String, { nullable: true }) trackTitle!: string | null;
  @Field(() => String, { description: 'The creator or label the filer is verified as.' }) claimedName!: string;
  @Field(() => String) text!: string;
  @Field(() => NoticeStatusEnum) status!: NoticeStatusEnum;
  @Field(() => String, { nullable: true }) counterText!: string | null;
  @Field(() => Date, { nullable: true }) counteredAt!: Date | null;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date, { nullable: true }) decidedAt!: Date | null;
  @Field(() => Boolean, { description: 'You filed it.' }) isFiler!: boolean;
  @Field(() => Boolean, { description: 'It is on your mix: you may counter-notice while it is open.' }) isOwner!: boolean;
  @Field(() => [NoticeEventObject], { description: 'Every step, oldest first.' }) history!: NoticeEventObject[];

  static from(view: NoticeView): CopyrightNoticeObject {
    return Object.assign(new CopyrightNoticeObject(), view, {
      status: view.status as NoticeStatusEnum,
      history: view.history.map(NoticeEventObject.from),
    });
  }
}

@ObjectType('ReportHistoryEntry', { description: 'An earlier report of the same target (no reporter names).' })
export class ReportHistoryObject {
  @Field(() => ReportReasonEnum) reason!: ReportReasonEnum;
  @Field(() => ReportStatusEnum) status!: ReportStatusEnum;
  @Field(() => String, { nullable: true }) outcome!: string | null;
  @Field(() => Date) createdAt!: Date;

  static from(view: ReportHistoryView): ReportHistoryObject {
    return Object.assign(new ReportHistoryObject(), view, {
      reason: view.reason as ReportReasonEnum,
      status: view.status as ReportStatusEnum,
    });
  }
}

@ObjectType('TrustItemDetails', { description: 'What a moderator sees beside a report or a notice in the queue.' })
export class TrustItemObject {
  @Field(() => ReportTargetKindEnum) targetKind!: ReportTargetKindEnum;
  @Field(() => ID) targetId!: string;
  @Field(() => String, { nullable: true }) targetName!: string | null;
  @Field(() => MixModerationStateEnum, { nullable: true, description: 'The hold on the mix, if any (mix targets).' })
  mixState!: MixModerationStateEnum | null;
  @Field(() => ID, { nullable: true, description: 'The mix’s owner, or the reported member.' }) ownerId!: string | null;
  @Field(() => String, { nullable: true }) ownerName!: string | null;
  @Field(() => Boolean) memberSuspended!: boolean;
  @Field(() => Date, { nullable: true }) memberSuspendedUntil!: Date | null;
  @Field(() => ReportReasonEnum, { nullable: true, description: 'The report’s reason (null for a notice).' })
  reason!: ReportReasonEnum | null;
  @Field(() => String, { nullable: true }) note!: string | null;
  @Field(() => [String], { description: 'The tracks recognition found in the mix.' }) recognisedTracks!: string[];
  @Field(() => [String], { description: 'The mix’s tracklist as its owner typed it.' }) tracklist!: string[];
  @Field(() => Int, { description: 'Earlier reports of the same target.' }) earlierReports!: number;
  @Field(() => [ReportHistoryObject], { description: 'The latest earlier reports, newest first.' }) reportHistory!: ReportHistoryObject[];
  @Field(() => Int, { description: 'Upheld copyright strikes of the owner within the strike window.' }) strikes!: number;
  @Field(() => CopyrightNoticeObject, { nullable: true }) notice!: CopyrightNoticeObject | null;

  static from(view: TrustItemView): TrustItemObject {
    return Object.assign(new TrustItemObject(), view, {
      targetKind: view.targetKind as ReportTargetKindEnum,
      mixState: view.mixState as MixModerationStateEnum | null,
      reason: view.reason as ReportReasonEnum | null,
      reportHistory: view.reportHistory.map(ReportHistoryObject.from),
      notice: view.notice ? CopyrightNoticeObject.from(view.notice) : null,
    });
  }
}

@ObjectType('StrikePolicy', { description: 'Uploads stop at `strikeLimit` upheld strikes within `windowDays` days.' })
export class StrikePolicyObject {
  @Field(() => Int) strikeLimit!: number;
  @Field(() => Int) windowDays!: number;
}

@ObjectType('UploadBlock', { description: 'Why and until when your uploads are refused.' })
export class UploadBlockObject {
  @Field(() => Int) strikes!: number;
  @Field(() => Date) until!: Date;
  @Field(() => String) message!: string;

  static from(view: UploadBlockView): UploadBlockObject {
    return Object.assign(new UploadBlockObject(), view);
  }
}

@ObjectType('HeldMix', { description: 'A mix under a moderation hold (moderators).' })
export class HeldMixObject {
  @Field(() => ID) mixId!: string;
  @Field(() => String) title!: string;
  @Field(() => String) ownerName!: string;
  @Field(() => MixModerationStateEnum) state!: MixModerationStateEnum;
  @Field(() => String, { nullable: true }) reason!: string | null;
  @Field(() => Date, { nullable: true }) at!: Date | null;

  static from(view: HeldMixView): HeldMixObject {
    return Object.assign(new HeldMixObject(), view, { state: view.state as MixModerationStateEnum });
  }
}

@ObjectType('HeldMixPage')
export class HeldMixPageObject {
  @Field(() => Int) totalCount!: number;
  @Field(() => Int) page!: number;
  @Field(() => [HeldMixObject]) items!: HeldMixObject[];
}

@ObjectType('SuspendedMember', { description: 'A suspended member (moderators).' })
export class SuspendedMemberObject {
  @Field(() => ID) id!: string;
  @Field(() => String, { nullable: true }) userName!: string | null;
  @Field(() => String) displayName!: string;
  @Field(() => Date) suspendedAt!: Date;
  @Field(() => Date, { nullable: true, description: 'null: until a moderator restores them.' }) suspendedUntil!: Date | null;
  @Field(() => String, { nullable: true }) reason!: string | null;

  static from(view: SuspendedMemberView): SuspendedMemberObject {
    return Object.assign(new SuspendedMemberObject(), view);
  }
}

@ObjectType('SuspendedMemberPage')
export class SuspendedMemberPageObject {
  @Field(() => Int) totalCount!: number;
  @Field(() => Int) page!: number;
  @Field(() => [SuspendedMemberObject]) items!: SuspendedMemberObject[];
}

@ObjectType('TransparencyMonth', { description: 'One month’s counts (UTC), no names.' })
export class TransparencyMonthObject {
  @Field(() => String, { description: 'YYYY-MM' }) month!: string;
  @Field(() => Int) reportsReceived!: number;
  @Field(() => Int) notices!: number;
  @Field(() => Int, { description: 'Mixes hidden or removed by a notice or a moderator.' }) takedowns!: number;
  @Field(() => Int) counterNotices!: number;
  @Field(() => Int, { description: 'Mixes and members restored.' }) restorations!: number;
  @Field(() => Int) suspensions!: number;

  static from(view: TransparencyMonthView): TransparencyMonthObject {
    return Object.assign(new TransparencyMonthObject(), view);
  }
}

@InputType('ReportContentInput')
export class ReportContentInput {
  @Field(() => ReportTargetKindEnum) targetKind!: ReportTargetKindEnum;
  @Field(() => ID, { description: 'The mix’s or the member’s id.' }) targetId!: string;
  @Field(() => ReportReasonEnum) reason!: ReportReasonEnum;
  @Field(() => String, { nullable: true }) note?: string | null;
}

@InputType('FileCopyrightNoticeInput')
export class FileCopyrightNoticeInput {
  @Field(() => ID) mixId!: string;
  @Field(() => ID, { description: 'Your track that the mix plays (its tracklist or recognition shows it).' }) trackId!: string;
  @Field(() => String, { description: 'The notice: told to the mix’s owner word for word.' }) text!: string;
}

@InputType('CounterNoticeInput')
export class CounterNoticeInput {
  @Field(() => ID) noticeId!: string;
  @Field(() => String) text!: string;
}

@InputType('ModerateTrustItemInput')
export class ModerateTrustItemInput {
  @Field(() => ID, { description: 'A queue item of kind report or copyright_notice.' }) itemId!: string;
  @Field(() => TrustActionEnum) action!: TrustActionEnum;
  @Field(() => String, { nullable: true, description: 'Why: written to the audit log and told to the member.' }) reason?: string | null;
  @Field(() => Date, { nullable: true, description: 'SUSPEND_MEMBER only: when it ends; none lasts until restored.' })
  suspendedUntil?: Date | null;
}

@InputType('RestoreInput')
export class RestoreInput {
  @Field(() => ID, { description: 'The mix’s or the member’s id.' }) id!: string;
  @Field(() => String, { nullable: true }) reason?: string | null;
}

@InputType('StrikePolicyInput')
export class StrikePolicyInput {
  @Field(() => Int) strikeLimit!: number;
  @Field(() => Int) windowDays!: number;
  @Field(() => String, { nullable: true }) reason?: string | null;
}
