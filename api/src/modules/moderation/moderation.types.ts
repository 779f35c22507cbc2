import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import type { AuditEntryView, QueueItemView } from './moderation.service.js';

export enum QueueStatusEnum {
  OPEN = 'open',
  APPROVED = 'approved',
  REJECTED = 'rejected',
}
registerEnumType(QueueStatusEnum, { name: 'QueueStatus', description: 'Where a moderation queue item stands.' });

export enum DecisionEnum {
  APPROVE = 'approve',
  REJECT = 'reject',
}
registerEnumType(DecisionEnum, { name: 'ModerationDecision' });

@ObjectType('QueueMember', { description: 'The member who raised a queue item.' })
export class QueueMemberObject {
  @Field(() => ID) id!: string;
  @Field(() => String, { nullable: true }) userName!: string | null;
  @Field(() => String) displayName!: string;
}

@ObjectType('ModerationItem', { description: 'Something waiting for a moderator; `kind` says which module decides it.' })
export class ModerationItemObject {
  @Field(() => ID) id!: string;
  @Field(() => String, { description: 'creator_claim, claim_dispute, reference_duplicate, ...' }) kind!: string;
  @Field(() => String) subjectId!: string;
  @Field(() => String) summary!: string;
  @Field(() => [String], { description: 'Links to open before deciding (a claim’s evidence).' }) links!: string[];
  @Field(() => QueueMemberObject, { nullable: true }) raisedBy!: QueueMemberObject | null;
  @Field(() => QueueStatusEnum) status!: QueueStatusEnum;
  @Field(() => Date) openedAt!: Date;
  @Field(() => Date, { nullable: true }) decidedAt!: Date | null;
  @Field(() => String, { nullable: true }) reason!: string | null;

  static from(view: QueueItemView): ModerationItemObject {
    return Object.assign(new ModerationItemObject(), view, { status: view.status as QueueStatusEnum });
  }
}

@ObjectType('ModerationQueuePage')
export class ModerationQueuePageObject {
  @Field(() => Int) totalCount!: number;
  @Field(() => Int) page!: number;
  @Field(() => [ModerationItemObject]) items!: ModerationItemObject[];
}

@ObjectType('AuditEntry', { description: 'One moderator or operator action: who did what to which thing, when and why.' })
export class AuditEntryObject {
  @Field(() => ID) id!: string;
  @Field(() => String, { nullable: true }) actorId!: string | null;
  @Field(() => String) actorName!: string;
  @Field(() => String) action!: string;
  @Field(() => String) targetKind!: string;
  @Field(() => String) targetId!: string;
  @Field(() => String, { nullable: true }) targetName!: string | null;
  @Field(() => String, { nullable: true }) reason!: string | null;
  @Field(() => Date) at!: Date;

  static from(view: AuditEntryView): AuditEntryObject {
    return Object.assign(new AuditEntryObject(), view);
  }
}

@ObjectType('AuditLogPage')
export class AuditLogPageObject {
  @Field(() => Int) totalCount!: number;
  @Field(() => Int) page!: number;
  @Field(() => [AuditEntryObject]) items!: AuditEntryObject[];
}

@ObjectType('Moderator')
export class ModeratorObject {
  @Field(() => ID) id!: string;
  @Field(() => String, { nullable: true }) userName!: string | null;
  @Field(() => String) displayName!: string;
  @Field(() => String) email!: string;
}

@InputType('DecideModerationInput')
export class DecideModerationInput {
  @Field(() => ID) itemId!: string;
  @Field(() => DecisionEnum) decision!: DecisionEnum;
  @Field(() => String, { nullable: true, description: 'Why: written to the audit log and told to the member.' }) reason?: string | null;
}

@InputType('SetModeratorInput')
export class SetModeratorInput {
  @Field(() => String, { description: 'The member’s user name or e-mail address.' }) member!: string;
  @Field(() => Boolean, { description: 'true grants the moderator role, false revokes it.' }) grant!: boolean;
  @Field(() => String, { nullable: true }) reason?: string | null;
}
