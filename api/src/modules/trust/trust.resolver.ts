import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { GraphQLContext } from '../../graphql/context.js';
import { ListSize, Lookup } from '../../graphql/limits.js';
import { requireViewer } from '../../shared/viewer.js';
import { MixObject } from '../mixes/mix.types.js';
import { ModerationItemObject } from '../moderation/moderation.types.js';
import { TRANSPARENCY_MONTHS_MAX } from './trust.inputs.js';
import {
  CopyrightNoticeObject,
  CounterNoticeInput,
  FileCopyrightNoticeInput,
  HeldMixObject,
  HeldMixPageObject,
  MixModerationStateEnum,
  ModerateTrustItemInput,
  ReportContentInput,
  ReportObject,
  ReportPageObject,
  RestoreInput,
  StrikePolicyInput,
  StrikePolicyObject,
  SuspendedMemberObject,
  SuspendedMemberPageObject,
  TransparencyMonthObject,
  TrustItemObject,
  UploadBlockObject,
} from './trust.types.js';
import { MY_NOTICES_MAX } from './trust.views.js';

/** The GraphQL skin of reports, notices, holds and suspensions (docs/trust.md#graphql). */
@Resolver()
export class TrustResolver {
  @Mutation(() => ReportObject, { description: 'Reports a mix or a member to the moderators (one open report per target; rate-limited).' })
  async reportContent(
    @Arg('input', () => ReportContentInput) input: ReportContentInput,
    @Ctx() ctx: GraphQLContext,
  ): Promise<ReportObject> {
    return ReportObject.from(await ctx.services.trust.report(requireViewer(ctx.viewer).id, { ...input }));
  }

  @Query(() => ReportPageObject, { description: 'Your reports, newest first, with what became of each.' })
  async myReports(
    @Ctx() ctx: GraphQLContext,
    @Arg('page', () => Int, { nullable: true, description: 'From 0.' }) page?: number | null,
    @Arg('first', () => Int, { nullable: true }) first?: number | null,
  ): Promise<ReportPageObject> {
    const result = await ctx.services.trust.myReports(requireViewer(ctx.viewer).id, { page, first });
    return Object.assign(new ReportPageObject(), result, { items: result.items.map(ReportObject.from) });
  }

  @Mutation(() => CopyrightNoticeObject, {
    description:
      'Files a copyright notice on a mix that plays your track (verified creators and labels of the track): the mix is hidden at once.',
  })
  async fileCopyrightNotice(
    @Arg('input', () => FileCopyrightNoticeInput) input: FileCopyrightNoticeInput,
    @Ctx() ctx: GraphQLContext,
  ): Promise<CopyrightNoticeObject> {
    return CopyrightNoticeObject.from(await ctx.services.trust.fileNotice(requireViewer(ctx.viewer).id, { ...input }));
  }

  @Mutation(() => CopyrightNoticeObject, { description: 'Answers an open notice on your mix with a counter-notice; a moderator decides.' })
  async counterNotice(
    @Arg('input', () => CounterNoticeInput) input: CounterNoticeInput,
    @Ctx() ctx: GraphQLContext,
  ): Promise<CopyrightNoticeObject> {
    return CopyrightNoticeObject.from(await ctx.services.trust.counterNotice(requireViewer(ctx.viewer).id, { ...input }));
  }

  @Query(() => CopyrightNoticeObject, { description: 'One notice with its history (its filer, the mix’s owner, moderators).' })
  async copyrightNotice(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<CopyrightNoticeObject> {
    return CopyrightNoticeObject.from(await ctx.services.trust.notice(requireViewer(ctx.viewer).id, { noticeId: id }));
  }

  @Query(() => [CopyrightNoticeObject], {
    description: `Notices you filed and notices on your mixes, newest first (at most ${MY_NOTICES_MAX}).`,
  })
  @ListSize(MY_NOTICES_MAX)
  async myCopyrightNotices(@Ctx() ctx: GraphQLContext): Promise<CopyrightNoticeObject[]> {
    return (await ctx.services.trust.myNotices(requireViewer(ctx.viewer).id)).map(CopyrightNoticeObject.from);
  }

  @Query(() => UploadBlockObject, { nullable: true, description: 'Why and until when your uploads are refused; null when they are not.' })
  async myUploadBlock(@Ctx() ctx: GraphQLContext): Promise<UploadBlockObject | null> {
    const block = await ctx.services.trust.uploadBlockOf(requireViewer(ctx.viewer).id);
    return block ? UploadBlockObject.from(block) : null;
  }

  @Mutation(() => ModerationItemObject, {
    description: 'Acts on a report or a notice in the queue and closes it (moderators and operators).',
  })
  async moderateTrustItem(
    @Arg('input', () => ModerateTrustItemInput) input: ModerateTrustItemInput,
    @Ctx() ctx: GraphQLContext,
  ): Promise<ModerationItemObject> {
    return ModerationItemObject.from(await ctx.services.trust.moderate(requireViewer(ctx.viewer).id, { ...input }));
  }

  @Mutation(() => Boolean, { description: 'Lifts the hold on a mix: it is back exactly as it was (moderators and operators).' })
  restoreMix(@Arg('input', () => RestoreInput) input: RestoreInput, @Ctx() ctx: GraphQLContext): Promise<boolean> {
    return ctx.services.trust.restoreMix(requireViewer(ctx.viewer).id, { ...input });
  }

  @Mutation(() => Boolean, { description: 'Ends a member’s suspension: they and their mixes are back (moderators and operators).' })
  restoreMember(@Arg('input', () => RestoreInput) input: RestoreInput, @Ctx() ctx: GraphQLContext): Promise<boolean> {
    return ctx.services.trust.restoreMember(requireViewer(ctx.viewer).id, { ...input });
  }

  @Query(() => HeldMixPageObject, { description: 'Mixes under a moderation hold, newest hold first (moderators and operators).' })
  async heldMixes(
    @Ctx() ctx: GraphQLContext,
    @Arg('page', () => Int, { nullable: true, description: 'From 0.' }) page?: number | null,
    @Arg('first', () => Int, { nullable: true }) first?: number | null,
  ): Promise<HeldMixPageObject> {
    const result = await ctx.services.trust.heldMixes(requireViewer(ctx.viewer).id, { page, first });
    return Object.assign(new HeldMixPageObject(), result, { items: result.items.map(HeldMixObject.from) });
  }

  @Query(() => SuspendedMemberPageObject, { description: 'Suspended members, newest first (moderators and operators).' })
  async suspendedMembers(
    @Ctx() ctx: GraphQLContext,
    @Arg('page', () => Int, { nullable: true, description: 'From 0.' }) page?: number | null,
    @Arg('first', () => Int, { nullable: true }) first?: number | null,
  ): Promise<SuspendedMemberPageObject> {
    const result = await ctx.services.trust.suspendedMembers(requireViewer(ctx.viewer).id, { page, first });
    return Object.assign(new SuspendedMemberPageObject(), result, { items: result.items.map(SuspendedMemberObject.from) });
  }

  @Query(() => StrikePolicyObject, { description: 'How many upheld strikes within how many days block uploads.' })
  async strikePolicy(@Ctx() ctx: GraphQLContext): Promise<StrikePolicyObject> {
    return Object.assign(new StrikePolicyObject(), await ctx.services.trust.strikePolicy());
  }

  @Mutation(() => StrikePolicyObject, { description: 'Sets the repeat-infringer numbers (operators only).' })
  async setStrikePolicy(
    @Arg('input', () => StrikePolicyInput) input: StrikePolicyInput,
    @Ctx() ctx: GraphQLContext,
  ): Promise<StrikePolicyObject> {
    return Object.assign(new StrikePolicyObject(), await ctx.services.trust.setStrikePolicy(requireViewer(ctx.viewer).id, { ...input }));
  }

  @Query(() => [TransparencyMonthObject], {
    description: 'Per month, newest first: reports, notices, takedowns, counter-notices, restorations, suspensions. No names.',
  })
  @ListSize(TRANSPARENCY_MONTHS_MAX)
  async transparencyReport(
    @Ctx() ctx: GraphQLContext,
    @Arg('months', () => Int, {
      nullable: true,
      description: `How many months back, this one included (1–${TRANSPARENCY_MONTHS_MAX}, default 12).`,
    })
    months?: number | null,
  ): Promise<TransparencyMonthObject[]> {
    return (await ctx.services.trust.transparency({ months })).map(TransparencyMonthObject.from);
  }
}

/** What a moderator sees beside a report or a notice in the queue. */
@Resolver(() => ModerationItemObject)
export class ModerationItemTrustResolver {
  @Lookup()
  @FieldResolver(() => TrustItemObject, {
    nullable: true,
    description: 'For reports and notices: the target, recognition, earlier reports.',
  })
  async trust(@Root() item: ModerationItemObject, @Ctx() ctx: GraphQLContext): Promise<TrustItemObject | null> {
    const view = await ctx.services.trust.itemDetails(requireViewer(ctx.viewer).id, { kind: item.kind, subjectId: item.subjectId });
    return view ? TrustItemObject.from(view) : null;
  }
}

/** The hold on a mix, for its owner and moderators. */
@Resolver(() => MixObject)
export class MixModerationStateResolver {
  @Lookup()
  @FieldResolver(() => MixModerationStateEnum, {
    nullable: true,
    description: 'HIDDEN or REMOVED while a notice or a moderator holds the mix (its owner and moderators see it; null for anyone else).',
  })
  async moderationState(@Root() mix: MixObject, @Ctx() ctx: GraphQLContext): Promise<MixModerationStateEnum | null> {
    const state = await ctx.services.trust.moderationStateOf(ctx.viewer?.id ?? null, mix.id, mix.owner.id);
    return state as MixModerationStateEnum | null;
  }
}
