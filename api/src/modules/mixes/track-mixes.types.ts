import { Field, Float, Int, ObjectType } from 'type-graphql';
import { PageInfoObject, pageInfoOf } from '../../graphql/connection.js';
import type { Services } from '../../services.js';
import { MixObject } from './mix.types.js';
import type { TrackMixPage } from './mix.views.js';

@ObjectType('TrackMixEdge', { simpleResolvers: true, description: 'A published mix that plays the track.' })
export class TrackMixEdgeObject {
  @Field(() => String) cursor!: string;
  @Field(() => MixObject) node!: MixObject;
  @Field(() => Float, { nullable: true, description: 'Seconds into the mix where the track starts; null when unknown.' })
  startTime!: number | null;
}

@ObjectType('TrackMixConnection', {
  simpleResolvers: true,
  description: 'The published mixes whose tracklist holds a track, newest first.',
})
export class TrackMixConnectionObject {
  @Field(() => [TrackMixEdgeObject]) edges!: TrackMixEdgeObject[];
  @Field(() => PageInfoObject) pageInfo!: PageInfoObject;
  count!: Promise<number>;
  // A method, not a property: compiled execution reads a property without a resolver as a value, never as a promise.
  @Field(() => Int, { description: 'How many mixes play the track, across all pages.' })
  totalCount(): Promise<number> {
    return this.count;
  }

  static from(services: Services, page: TrackMixPage, viewerId: string | null): TrackMixConnectionObject {
    const edges = page.items.map((item) => ({
      cursor: item.cursor,
      node: MixObject.from(services, item.mix, { distanceKm: item.distanceKm, viewerId }),
      startTime: item.startTime,
    }));
    return Object.assign(new TrackMixConnectionObject(), {
      edges,
      pageInfo: pageInfoOf(edges, page),
      count: page.totalCount,
    });
  }
}
