import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../graphql/context.js';
import { requireViewer } from '../../shared/viewer.js';
import {
  AuditEntryObject,
  AuditLogPageObject,
  DecideModerationInput,
  ModerationItemObject,
  ModerationQueuePageObject,
  ModeratorObject,
  QueueStatusEnum,
  SetModeratorInput,
} from './moderation.types.js';

/** The GraphQL skin of moderation: the queue (moderators), the audit log and the moderators (operators). */
@Resolver()
export class ModerationResolver {
  @Query(() => Boolean, { description: 'Whether you review the moderation queue (moderators and operators); false when signed out.' })
  async canModerate(@Ctx() ctx: GraphQLContext): Promise<boolean> {
    return ctx.viewer ? ctx.services.moderation.canModerate(ctx.viewer.id) : false;
  }

  @Query(() => ModerationQueuePageObject, { description: 'The moderation queue, oldest open item first (moderators and operators).' })
  async moderationQueue(
    @Ctx() ctx: GraphQLContext,
    @Arg('status', () => QueueStatusEnum, { nullable: true }) status?: QueueStatusEnum | null,
    @Arg('page', () => Int, { nullable: true, description: 'From 0.' }) page?: number | null,
    @Arg('first', () => Int, { nullable: true }) first?: number | null,
  ): Promise<ModerationQueuePageObject> {
    const result = await ctx.services.moderation.queue(requireViewer(ctx.viewer).id, { status, page, first });
    return Object.assign(new ModerationQueuePageObject(), result, { items: result.items.map(ModerationItemObject.from) });
  }

  @Mutation(() => ModerationItemObject, { description: 'Approves or rejects an open queue item (moderators and operators).' })
  async decideModerationItem(
    @Arg('input', () => DecideModerationInput) input: DecideModerationInput,
    @Ctx() ctx: GraphQLContext,
  ): Promise<ModerationItemObject> {
    return ModerationItemObject.from(await ctx.services.moderation.decide(requireViewer(ctx.viewer).id, input));
  }

  @Query(() => AuditLogPageObject, { description: 'Every moderator and operator action, newest first (operators only).' })
  async auditLog(
    @Ctx() ctx: GraphQLContext,
    @Arg('page', () => Int, { nullable: true, description: 'From 0.' }) page?: number | null,
    @Arg('first', () => Int, { nullable: true }) first?: number | null,
  ): Promise<AuditLogPageObject> {
    const result = await ctx.services.moderation.audit(requireViewer(ctx.viewer).id, { page, first });
    return Object.assign(new AuditLogPageObject(), result, { items: result.items.map(AuditEntryObject.from) });
  }

  @Query(() => [ModeratorObject], { description: 'The members holding the moderator role (operators only).' })
  async moderators(@Ctx() ctx: GraphQLContext): Promise<ModeratorObject[]> {
    return (await ctx.services.moderation.moderators(requireViewer(ctx.viewer).id)).map((row) => Object.assign(new ModeratorObject(), row));
  }

  @Mutation(() => Boolean, { description: 'Grants or revokes the moderator role (operators only); true when it changed.' })
  setModerator(@Arg('input', () => SetModeratorInput) input: SetModeratorInput, @Ctx() ctx: GraphQLContext): Promise<boolean> {
    return ctx.services.moderation.setModerator(requireViewer(ctx.viewer).id, input);
  }
}
