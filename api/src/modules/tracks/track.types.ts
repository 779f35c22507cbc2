import { Field, ID, ObjectType } from 'type-graphql';
import type { TrackView } from './tracks.service.js';

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
