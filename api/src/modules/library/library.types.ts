import { Field, ObjectType } from 'type-graphql';
import { TrackObject } from '../tracks/track.types.js';
import type { SavedTrackView } from './library.service.js';

@ObjectType('SavedTrack', { simpleResolvers: true })
export class SavedTrackObject {
  @Field(() => TrackObject) track!: TrackObject;
  @Field(() => Date) savedAt!: Date;

  static from(saved: SavedTrackView): SavedTrackObject {
    return Object.assign(new SavedTrackObject(), { track: TrackObject.from(saved.track), savedAt: saved.savedAt });
  }
}
