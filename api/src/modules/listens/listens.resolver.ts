import { Arg, Ctx, ID, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import type { GraphQLContext } from '../../graphql/context.js';
import { type ListenerCountEvent, Topics } from '../../graphql/topics.js';
import { requireViewer } from '../auth/auth.policy.js';
import { ListenObject, MixStatsObject } from './listens.types.js';

@Resolver()
export class ListensResolver {
  @Mutation(() => Int, { description: 'Counts a play (anonymous on shared pages); answers the play count.' })
  playMix(@Arg('mixId', () => ID) mixId: string, @Ctx() ctx: GraphQLContext): Promise<number> {
    return ctx.services.listens.play(mixId, ctx.viewer?.id ?? null);
  }

  @Mutation(() => ListenObject, { description: 'Starts a listen; an earlier one still open is closed with no length.' })
  startListen(
    @Arg('mixId', () => ID) mixId: string,
    @Arg('start', () => Date, { nullable: true }) start: Date | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<ListenObject> {
    return ctx.services.listens.start(mixId, requireViewer(ctx.viewer).id, start ?? undefined);
  }

  @Mutation(() => ListenObject, { description: 'Ends the open listen (pause or end of the mix).' })
  endListen(
    @Arg('mixId', () => ID) mixId: string,
    @Arg('end', () => Date, { nullable: true }) end: Date | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<ListenObject> {
    return ctx.services.listens.end(mixId, requireViewer(ctx.viewer).id, end ?? undefined);
  }

  @Query(() => MixStatsObject)
  mixStats(@Arg('mixId', () => ID) mixId: string, @Ctx() ctx: GraphQLContext): Promise<MixStatsObject> {
    return ctx.services.listens.stats(mixId);
  }

  @Query(() => [ListenObject], { description: 'The listen records of a mix, newest first: for its owner only.' })
  mixListens(@Arg('mixId', () => ID) mixId: string, @Ctx() ctx: GraphQLContext): Promise<ListenObject[]> {
    return ctx.services.listens.records(mixId, requireViewer(ctx.viewer).id);
  }

  @Subscription(() => Int, {
    topics: Topics.ListenerCount,
    filter: ({ payload, args }: { payload: ListenerCountEvent; args: { mixId: string } }) => payload.mixId === args.mixId,
    description: 'The number of members listening to a mix right now, pushed whenever it changes.',
  })
  mixListenerCount(@Root() event: ListenerCountEvent, @Arg('mixId', () => ID) _mixId: string): number {
    return event.count;
  }
}
