import { Arg, Args, Ctx, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../graphql/context.js';
import { SearchArgs, SearchConnectionObject, SearchSuggestionsObject } from './search.types.js';

/** Search over mixes, members and tracks (docs/search.md#calls); public, within the rate limits. */
@Resolver()
export class SearchResolver {
  @Query(() => SearchConnectionObject, {
    description:
      'Mixes, members and tracks matching what was typed, best first: typos by word length, case, accents, punctuation, ' +
      'word order and the start of the last word are forgiven. No sign-in needed.',
  })
  async search(@Args(() => SearchArgs) args: SearchArgs, @Ctx() ctx: GraphQLContext): Promise<SearchConnectionObject> {
    const viewerId = ctx.viewer?.id ?? null;
    const page = await ctx.services.search.search(
      {
        q: args.query,
        types: args.types,
        first: args.first,
        after: args.after,
        genre: args.genre,
        withinKm: args.withinKm,
        length: args.length,
      },
      viewerId,
    );
    return SearchConnectionObject.from(ctx.services, page, viewerId);
  }

  @Query(() => SearchSuggestionsObject, { description: 'At most eight results for the text typed so far, grouped by kind.' })
  async searchSuggestions(@Arg('query', () => String) query: string, @Ctx() ctx: GraphQLContext): Promise<SearchSuggestionsObject> {
    const viewerId = ctx.viewer?.id ?? null;
    return SearchSuggestionsObject.from(ctx.services, await ctx.services.search.suggest({ q: query }), viewerId);
  }
}
