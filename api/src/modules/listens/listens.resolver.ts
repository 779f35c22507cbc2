import DataLoader from 'dataloader';
import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import type { GraphQLContext } from '../../graphql/context.js';
import { LiveValue } from '../../graphql/live-value.js';
import { Topics } from '../../graphql/topics.js';
import { requireViewer } from '../../shared/viewer.js';
import { MixObject } from '../mixes/mix.types.js';
import { ListenObject, MixStatsObject } from './listens.types.js';
import type { ListenerCount } from './live-counts.js';

const liveCountLoaders = new WeakMap<GraphQLContext, DataLoader<string, number>>();

/** Batches the live counts of one request: a page of mixes costs one query, not one per mix. */
function liveCountLoader(ctx: GraphQLContext): DataLoader<string, number> {
  let loader = liveCountLoaders.get(ctx);
  if (!loader) {
    loader = new DataLoader(
      async (ids) => {
        const counts = await ctx.services.listens.counts.ofMixes(ids);
        return ids.map((id) => counts.get(id) ?? 0);
        // No cache: a subscription keeps its context for every event, and each event must count afresh.
      },
      { cache: false },
    );
    liveCountLoaders.set(ctx, loader);
  }
  return loader;
}

@Resolver(() => MixObject)
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

  @Mutation(() => ListenObject, {
    description:
      'Keeps the open listen alive: players send one every 20-30 s while playing. A listen counts in listeningNow until 60 s after its last heartbeat. NOT_FOUND when no listen is open (start a new one).',
  })
  heartbeatListen(@Arg('mixId', () => ID) mixId: string, @Ctx() ctx: GraphQLContext): Promise<ListenObject> {
    return ctx.services.listens.heartbeat(mixId, requireViewer(ctx.viewer).id);
  }

  @Mutation(() => ListenObject, {
    description: 'Ends the open listen (pause or end of the mix); sent again, answers the ended listen unchanged.',
  })
  endListen(
    @Arg('mixId', () => ID) mixId: string,
    @Arg('end', () => Date, { nullable: true }) end: Date | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<ListenObject> {
    return ctx.services.listens.end(mixId, requireViewer(ctx.viewer).id, end ?? undefined);
  }

  @Query(() => MixStatsObject)
  mixStats(@Arg('mixId', () => ID) mixId: string, @Ctx() ctx: GraphQLContext): Promise<MixStatsObject> {
    return ctx.services.listens.stats.of(mixId);
  }

  @Query(() => [ListenObject], { description: 'The listen records of a mix, newest first: for its owner only.' })
  mixListens(@Arg('mixId', () => ID) mixId: string, @Ctx() ctx: GraphQLContext): Promise<ListenObject[]> {
    return ctx.services.listens.stats.records(mixId, requireViewer(ctx.viewer).id);
  }

  @FieldResolver(() => Int, { description: 'Members listening right now (their players sent a sign of life in the last minute).' })
  listeningNow(@Root() mix: MixObject, @Ctx() ctx: GraphQLContext): Promise<number> {
    return liveCountLoader(ctx).load(mix.id);
  }

  @Subscription(() => Int, {
    description:
      'Members listening to a mix right now: the current number first, then every change (a start, a pause, an end, a listen gone silent). Public mixes may be watched without signing in.',
    subscribe: async ({ args, context }) => {
      const ctx = context as GraphQLContext;
      const { counts } = ctx.services.listens;
      const mixId = await counts.listenableMixId((args as { mixId: unknown }).mixId);
      if (!ctx.listen) throw new Error('No PubSub for subscriptions');
      return new LiveValue<ListenerCount>(
        ctx.listen,
        `${Topics.ListenerCount}:${mixId}`,
        () => counts.current(mixId),
        (a, b) => a.count === b.count,
      );
    },
  })
  mixListenerCount(@Root() event: ListenerCount, @Arg('mixId', () => ID) _mixId: string): number {
    return event.count;
  }
}
