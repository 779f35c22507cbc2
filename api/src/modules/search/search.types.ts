import { ArgsType, createUnionType, Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { PageInfoObject, pageInfoOf } from '../../graphql/connection.js';
import { Lookup } from '../../graphql/limits.js';
import type { Services } from '../../services.js';
import { GenreEnum, MixObject } from '../mixes/mix.types.js';
import { TrackObject } from '../tracks/track.types.js';
import { UserObject } from '../users/user.types.js';
import type { SearchItem, SearchPage, Suggestions } from './index.js';

export const SearchTypeEnum = { MIX: 'mix', MEMBER: 'member', TRACK: 'track' } as const;
registerEnumType(SearchTypeEnum, { name: 'SearchType', description: 'What a search looks for: mixes, members or tracks.' });
export const MixLengthEnum = { SHORT: 'short', MEDIUM: 'medium', LONG: 'long' } as const;
registerEnumType(MixLengthEnum, { name: 'MixLength', description: 'A mix’s length: under 30 minutes, 30 to 90, over 90.' });

export const SearchResultUnion = createUnionType({
  name: 'SearchResult',
  description: 'A mix, a member or a track.',
  // No resolveType of our own: type-graphql's default picks the class an item is an instance of, synchronously, which
  // compiled execution needs (it does not wait for a type to be resolved; a resolveType given here is made async).
  types: () => [MixObject, UserObject, TrackObject] as const,
});

@ArgsType()
export class SearchArgs {
  @Field(() => String, { description: 'What was typed (1 to 100 characters).' }) query!: string;
  @Field(() => [SearchTypeEnum], { nullable: true, description: 'Which kinds; all when left out.' }) types!: string[] | null;
  @Field(() => Int, { nullable: true, description: 'Results per page (default 20, at most 50).' }) first!: number | null;
  @Field(() => String, { nullable: true, description: 'The endCursor of the page before.' }) after!: string | null;
  @Field(() => GenreEnum, { nullable: true, description: 'Mixes of this genre only.' }) genre!: string | null;
  @Field(() => Int, { nullable: true, description: 'Mixes within this many km of your stored place only (signed in).' })
  withinKm!: number | null;
  @Field(() => MixLengthEnum, { nullable: true, description: 'Mixes of this length only.' }) length!: string | null;
}

const objectOf = (services: Services, item: SearchItem, viewerId: string | null): MixObject | UserObject | TrackObject =>
  item.kind === 'mix'
    ? MixObject.from(services, item.mix, { distanceKm: null, viewerId })
    : item.kind === 'member'
      ? UserObject.from(services, item.member)
      : TrackObject.from(item.track);

@ObjectType('SearchEdge', { simpleResolvers: true })
export class SearchEdgeObject {
  @Field(() => String) cursor!: string;
  @Field(() => SearchResultUnion) node!: MixObject | UserObject | TrackObject;
  @Field(() => ID, { nullable: true, description: 'For a mix found through its tracklist: the track it plays.' })
  viaTrackId!: string | null;
}

@ObjectType('SearchConnection', { simpleResolvers: true, description: 'Search results, best first.' })
export class SearchConnectionObject {
  @Field(() => [SearchEdgeObject]) @Lookup() edges!: SearchEdgeObject[];
  @Field(() => [SearchResultUnion]) @Lookup() nodes!: (MixObject | UserObject | TrackObject)[];
  @Field(() => PageInfoObject) pageInfo!: PageInfoObject;
  @Field(() => Int, { description: 'How many results match, across all pages (the ranking looks at the best 200).' })
  totalCount!: number;

  static from(services: Services, page: SearchPage, viewerId: string | null): SearchConnectionObject {
    const edges = page.items.map((item) => ({
      cursor: item.cursor,
      node: objectOf(services, item, viewerId),
      viaTrackId: item.kind === 'mix' ? item.viaTrackId : null,
    }));
    return Object.assign(new SearchConnectionObject(), {
      edges,
      nodes: edges.map((edge) => edge.node),
      pageInfo: pageInfoOf(edges, page),
      totalCount: page.totalCount,
    });
  }
}

@ObjectType('SearchSuggestions', { simpleResolvers: true, description: 'At most eight results as you type, grouped.' })
export class SearchSuggestionsObject {
  @Field(() => [MixObject]) @Lookup() mixes!: MixObject[];
  @Field(() => [UserObject]) @Lookup() members!: UserObject[];
  @Field(() => [TrackObject]) @Lookup() tracks!: TrackObject[];

  static from(services: Services, suggestions: Suggestions, viewerId: string | null): SearchSuggestionsObject {
    const objects = <T>(items: SearchItem[]) => items.map((item) => objectOf(services, item, viewerId) as T);
    return Object.assign(new SearchSuggestionsObject(), {
      mixes: objects<MixObject>(suggestions.mixes),
      members: objects<UserObject>(suggestions.members),
      tracks: objects<TrackObject>(suggestions.tracks),
    });
  }
}
