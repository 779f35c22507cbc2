import { Field, Float, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import type { RecognisedTrack, RecognitionView } from './recognition-jobs.js';
import type { ReferenceOutcome } from './track-references.service.js';

export enum RecognitionStateEnum {
  PENDING = 'pending',
  RUNNING = 'running',
  DONE = 'done',
  FAILED = 'failed',
}
registerEnumType(RecognitionStateEnum, {
  name: 'RecognitionState',
  description: 'PENDING until the recognition job starts (or while it waits for a retry), RUNNING, DONE, FAILED after every retry failed.',
});

@ObjectType('RecognisedTrack', { description: 'A catalogue track recognised in a mix, and when it plays (seconds into the mix).' })
export class RecognisedTrackObject {
  @Field(() => ID) trackId!: string;
  @Field(() => String, { description: "The catalogue's id of the track (its external id)." }) externalId!: string;
  @Field(() => String) title!: string;
  @Field(() => Float) start!: number;
  @Field(() => Float) end!: number;
  @Field(() => Float, { nullable: true, description: 'From 0 to 1; null while the job still runs (a provisional find).' })
  confidence!: number | null;
}

@ObjectType('MixRecognition', { description: "Which catalogue tracks play in a mix, found by a job after upload: for the mix's owner." })
export class MixRecognitionObject {
  @Field(() => ID) mixId!: string;
  @Field(() => RecognitionStateEnum) state!: RecognitionStateEnum;
  @Field(() => Float, { description: 'Share of the audio scanned, 0 to 1.' }) fraction!: number;
  @Field(() => [RecognisedTrackObject], { description: 'In time order: final once DONE, found so far while RUNNING.' })
  tracks!: RecognisedTrackObject[];

  static from(view: RecognitionView): MixRecognitionObject {
    return Object.assign(new MixRecognitionObject(), {
      ...view,
      state: view.state as RecognitionStateEnum,
      tracks: view.tracks.map((track: RecognisedTrack) => Object.assign(new RecognisedTrackObject(), track)),
    });
  }
}

@ObjectType('TrackReference', { description: "A track's reference audio, fingerprinted: what recognition finds the track by in mixes." })
export class TrackReferenceObject {
  @Field(() => ID) trackId!: string;
  @Field(() => Float, { description: 'Seconds of audio fingerprinted.' }) seconds!: number;
  @Field(() => Int, { description: 'Fingerprints stored (or held, when queued).' }) fingerprints!: number;
  @Field(() => Boolean, {
    description: 'The audio matches another owner’s indexed track: it waits for a moderator instead of entering the index.',
  })
  queued!: boolean;

  static from(view: ReferenceOutcome): TrackReferenceObject {
    return Object.assign(new TrackReferenceObject(), view);
  }
}
