import { Field, Float, ObjectType, registerEnumType } from 'type-graphql';
import type { WaveformView } from './waveform.service.js';

export enum WaveformStateEnum {
  PENDING = 'pending',
  READY = 'ready',
  FAILED = 'failed',
}
registerEnumType(WaveformStateEnum, {
  name: 'WaveformState',
  description: 'PENDING while the waveform job has not run (or is retrying), READY once measured, FAILED after every retry failed.',
});

@ObjectType('Waveform', { description: "A mix's seek-bar waveform, measured by a background job after upload." })
export class WaveformObject {
  @Field(() => WaveformStateEnum) state!: WaveformStateEnum;

  @Field(() => [Float], { nullable: true, description: 'About 1,800 peaks (0 to 1) evenly over the mix; null until READY.' })
  peaks!: number[] | null;

  @Field(() => Float, {
    nullable: true,
    description: 'Playing time in seconds: estimated from the frames at upload, exact (decoded samples) once READY.',
  })
  durationSeconds!: number | null;

  static from(view: WaveformView): WaveformObject {
    return Object.assign(new WaveformObject(), { ...view, state: view.state as WaveformStateEnum });
  }
}
