import { Arg, Ctx, Int, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../graphql/context.js';
import { FOR_YOU_DEFAULT } from './recommendation.inputs.js';
import { RecommendationObject } from './recommendation.types.js';

@Resolver()
export class RecommendationsResolver {
  @Query(() => [RecommendationObject], {
    description:
      'The "For you" row: new mixes of members you follow, then mixes liked by members who saved or finished what you did, ' +
      'then the week’s popular mixes weighted by distance; never your own, saved or finished ones. Visitors get the week’s popular mixes.',
  })
  async forYou(
    @Ctx() ctx: GraphQLContext,
    @Arg('first', () => Int, { defaultValue: FOR_YOU_DEFAULT }) first: number,
  ): Promise<RecommendationObject[]> {
    const viewerId = ctx.viewer?.id ?? null;
    const items = await ctx.services.recommendations.forYou(viewerId, { first });
    return items.map((item) => RecommendationObject.from(ctx.services, item, viewerId));
  }
}
