import DataLoader from 'dataloader';
import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { PageArgs, pageInfoOf } from '../../graphql/connection.js';
import type { GraphQLContext } from '../../graphql/context.js';
import { requireViewer } from '../../shared/viewer.js';
import { UserObject } from '../users/user.types.js';
import type { FollowCounts, FollowDirection } from './follows.service.js';
import { FollowCodeEnum, FollowConnectionObject } from './follows.types.js';

const countLoaders = new WeakMap<GraphQLContext, DataLoader<string, FollowCounts>>();

/** Batches follower/following counts of one request: a list of members costs one query, not one per member. */
function countLoader(ctx: GraphQLContext): DataLoader<string, FollowCounts> {
  let loader = countLoaders.get(ctx);
  if (!loader) {
    loader = new DataLoader(
      async (ids) => {
        const counts = await ctx.services.follows.countsOf(ids);
        return ids.map((id) => counts.get(id) ?? { followers: 0, following: 0 });
        // No cache: a subscription keeps its context for every event, and each event must count afresh.
      },
      { cache: false },
    );
    countLoaders.set(ctx, loader);
  }
  return loader;
}

@Resolver(() => UserObject)
export class FollowsResolver {
  @Mutation(() => FollowCodeEnum, { description: 'Follows the member, or unfollows when already following.' })
  async toggleFollow(@Arg('userId', () => ID) userId: string, @Ctx() ctx: GraphQLContext): Promise<FollowCodeEnum> {
    return (await ctx.services.follows.toggle(requireViewer(ctx.viewer).id, userId)) as FollowCodeEnum;
  }

  private async connection(ctx: GraphQLContext, direction: FollowDirection, paging: PageArgs): Promise<FollowConnectionObject> {
    const page = await ctx.services.follows.ownPage(requireViewer(ctx.viewer).id, direction, paging);
    const edges = page.results.map((entry) => ({
      node: UserObject.from(ctx.services, entry.user, { isFollowing: entry.isFollowing, distanceKm: entry.distanceKm }),
      cursor: entry.cursor,
      distanceKm: entry.distanceKm,
    }));
    return { totalCount: page.count, edges, pageInfo: pageInfoOf(edges, page) };
  }

  @Query(() => FollowConnectionObject, { description: 'The members the signed-in member follows, newest first.' })
  following(@Args(() => PageArgs) paging: PageArgs, @Ctx() ctx: GraphQLContext): Promise<FollowConnectionObject> {
    return this.connection(ctx, 'following', paging);
  }

  @Query(() => FollowConnectionObject, { description: 'The members who follow the signed-in member, newest first.' })
  followers(@Args(() => PageArgs) paging: PageArgs, @Ctx() ctx: GraphQLContext): Promise<FollowConnectionObject> {
    return this.connection(ctx, 'followers', paging);
  }

  @FieldResolver(() => Int)
  async followerCount(@Root() user: UserObject, @Ctx() ctx: GraphQLContext): Promise<number> {
    return (await countLoader(ctx).load(user.id)).followers;
  }

  @FieldResolver(() => Int)
  async followingCount(@Root() user: UserObject, @Ctx() ctx: GraphQLContext): Promise<number> {
    return (await countLoader(ctx).load(user.id)).following;
  }
}
