import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { PageInfoObject, pageInfoOf } from '../../graphql/connection.js';
import { NodeInterface } from '../../graphql/node.js';
import type { TrackPage, TrackView } from './tracks.service.js';

@ObjectType('Creator', { simpleResolvers: true, description: 'An artist credited on a track.' })
export class CreatorObject {
  @Field(() => ID, { nullable: true, description: 'The catalogue’s id for the artist; null for names typed by hand.' }) id!: string | null;
  @Field(() => String) name!: string;
}

@ObjectType('TrackLabel', { simpleResolvers: true })
export class TrackLabelObject {
  @Field(() => ID, { nullable: true }) id!: string | null;
  @Field(() => String) name!: string;
}

@ObjectType('Track', {
  simpleResolvers: true,
  implements: NodeInterface,
  description: 'A catalogue track; manual ones were typed by an uploader and matched nothing.',
})
export class TrackObject {
  @Field(() => ID) id!: string;
  @Field(() => String) title!: string;
  @Field(() => [CreatorObject]) creators!: CreatorObject[];
  @Field(() => TrackLabelObject, { nullable: true }) label!: TrackLabelObject | null;
  @Field(() => String, { nullable: true }) coverUrl!: string | null;
  @Field(() => Boolean) isManual!: boolean;
  @Field(() => Boolean, { description: 'Whether the track can be bought.' }) buy!: boolean;
  @Field(() => Boolean, { description: 'An unreleased track.' }) newRelease!: boolean;

  static from(track: TrackView): TrackObject {
    return Object.assign(new TrackObject(), {
      id: track.id,
      title: track.title,
      creators: track.creators.map((creator) => ({ id: creator.id ?? null, name: creator.name })),
      label: track.label ? { id: track.label.id ?? null, name: track.label.name } : null,
      coverUrl: track.cover ?? null,
      isManual: track.isManual,
      buy: track.buy,
      newRelease: track.newRelease,
    });
  }
}

@ObjectType('TrackEdge', { simpleResolvers: true })
export class TrackEdgeObject {
  @Field(() => String) cursor!: string;
  @Field(() => TrackObject) node!: TrackObject;
}

@ObjectType('TrackConnection', { simpleResolvers: true, description: 'Catalogue tracks in catalogue order.' })
export class TrackConnectionObject {
  @Field(() => [TrackEdgeObject]) edges!: TrackEdgeObject[];
  @Field(() => [TrackObject]) nodes!: TrackObject[];
  @Field(() => PageInfoObject) pageInfo!: PageInfoObject;

  static from(page: TrackPage): TrackConnectionObject {
    const edges = page.items.map((item) => ({ cursor: item.cursor, node: TrackObject.from(item.track) }));
    return Object.assign(new TrackConnectionObject(), {
      edges,
      nodes: edges.map((edge) => edge.node),
      pageInfo: pageInfoOf(edges, page),
    });
  }
}

@InputType('TrackLookupRowInput', {
  description: 'A tracklist row as the uploader typed it (docs/upload.md#step-2-add-tracks: both fields are needed).',
})
export class TrackLookupRowInput {
  @Field(() => String) artist!: string;
  @Field(() => String) title!: string;
}
