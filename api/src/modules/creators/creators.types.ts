import { Field, ID, InputType, ObjectType, registerEnumType } from 'type-graphql';
import type { ClaimView, HeldName } from './creators.service.js';

export enum ClaimSubjectEnum {
  CREATOR = 'creator',
  LABEL = 'label',
}
registerEnumType(ClaimSubjectEnum, { name: 'ClaimSubject', description: 'What a claim names: a credited creator or a label.' });

export enum ClaimStatusEnum {
  PENDING = 'pending',
  APPROVED = 'approved',
  REJECTED = 'rejected',
  REVOKED = 'revoked',
}
registerEnumType(ClaimStatusEnum, { name: 'ClaimStatus' });

@ObjectType('CreatorClaim', { description: 'Your claim to be a catalogue creator or label.' })
export class CreatorClaimObject {
  @Field(() => ID) id!: string;
  @Field(() => ClaimSubjectEnum) subject!: ClaimSubjectEnum;
  @Field(() => String) subjectName!: string;
  @Field(() => [String]) evidence!: string[];
  @Field(() => String) note!: string;
  @Field(() => ClaimStatusEnum) status!: ClaimStatusEnum;
  @Field(() => Boolean, { description: 'The name was held by another member when you claimed it: a moderator settles the dispute.' })
  isDispute!: boolean;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date, { nullable: true }) decidedAt!: Date | null;
  @Field(() => String, { nullable: true, description: 'The moderator’s reason, when they gave one.' }) reason!: string | null;

  static from(view: ClaimView): CreatorClaimObject {
    return Object.assign(new CreatorClaimObject(), {
      id: view.id,
      subject: view.subject as ClaimSubjectEnum,
      subjectName: view.subjectName,
      evidence: view.evidence,
      note: view.note,
      status: view.status as ClaimStatusEnum,
      isDispute: view.queueKind === 'claim_dispute',
      createdAt: view.createdAt,
      decidedAt: view.decidedAt,
      reason: view.reason,
    });
  }
}

@ObjectType('VerifiedName', { simpleResolvers: true, description: 'A creator or label a member is verified as.' })
export class VerifiedNameObject {
  @Field(() => ClaimSubjectEnum) subject!: ClaimSubjectEnum;
  @Field(() => String) name!: string;

  static from(held: HeldName): VerifiedNameObject {
    return Object.assign(new VerifiedNameObject(), { subject: held.subject as ClaimSubjectEnum, name: held.name });
  }
}

@ObjectType('NameHolder', { simpleResolvers: true, description: 'The verified member behind a creator or label name on a track.' })
export class NameHolderObject {
  @Field(() => ClaimSubjectEnum) subject!: ClaimSubjectEnum;
  @Field(() => String, { description: 'The name as the track credits it.' }) name!: string;
  @Field(() => String, { description: 'The holder’s user name: their profile is /profile/{userName}.' }) userName!: string;
}

@InputType('ClaimCreatorInput')
export class ClaimCreatorInput {
  @Field(() => ClaimSubjectEnum) subject!: ClaimSubjectEnum;
  @Field(() => String, { description: 'The creator or label name as the catalogue credits it.' }) name!: string;
  @Field(() => ID, { nullable: true, description: 'The track the claim was made from (its credits are searched first).' })
  trackId?: string | null;
  @Field(() => [String], { description: '1 to 5 links that show you are who you claim to be.' }) evidence!: string[];
  @Field(() => String, { nullable: true }) note?: string | null;
}
