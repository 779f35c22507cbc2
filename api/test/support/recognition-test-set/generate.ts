// The recognition test set, built deterministically from a seed: reference tracks from the demo world's synthesiser
// (seven styles from 70 to 175 BPM, four-on-the-floor, broken and half-time drums, every key and four scales, four
// oscillator timbres) and DJ mixes of them with known ground truth under each condition the engine must survive:
// crossfades of 16 to 32 s, speed changes with the pitch following or key-locked, EQ and filter moves, noise, short
// plays, and a fifth of the mix not in the catalogue.

import { type ReferenceRecipe, referenceRecipe, renderReference } from '../../../src/demo-world/synth.js';
import { Random } from '../../../src/shared/random.js';
import { addPinkNoise, addReverb, applyEq, type EqMove, speedAndPitch } from './transforms.js';

/** Mixes and references are rendered at this rate (mono), as the demo world's audio is. */
export const TEST_SAMPLE_RATE = 22_050;

export interface TestReference {
  /** Track number in the test index (catalogue references 0..n-1; unknown ones continue after). */
  track: number;
  recipe: ReferenceRecipe;
  /** In the catalogue (fingerprinted), or only played in mixes (must not be detected). */
  known: boolean;
}

export interface TestSet {
  seed: number;
  references: TestReference[];
}

/** `known` catalogue references and `unknown` others, from the seed (cut to `maxSeconds` each if given, for quick tests). */
export function testReferences(seed: number, known: number, unknown: number, maxSeconds?: number): TestSet {
  const references = Array.from({ length: known + unknown }, (_, track) => {
    const recipe = referenceRecipe(seed, track);
    if (maxSeconds) recipe.durationSeconds = Math.min(recipe.durationSeconds, maxSeconds);
    return { track, recipe, known: track < known };
  });
  return { seed, references };
}

export function referenceAudio(reference: TestReference): Float32Array {
  return renderReference(reference.recipe, TEST_SAMPLE_RATE);
}

export interface MixCondition {
  name: string;
  /** Absolute speed change range (0.02 to 0.04: ±2-4%); sign random per play. */
  speed: [number, number];
  /** How speed changes are made: pitch following tempo, key-locked, or either per play. */
  speedMode: 'turntable' | 'keylock' | 'either';
  eq: boolean;
  /** Pink noise at this SNR (dB), or none. */
  noiseDb: number | null;
  /** Seconds each play dominates the mix (from the middle of its fade in to the middle of its fade out). */
  play: [number, number];
  crossfade: [number, number];
  /** Share of plays from outside the catalogue. */
  unknownShare: number;
  /** Absolute key shift range in semitones (sign random per play) on top of the speed mode; none when absent. */
  keyShift?: [number, number];
  /** Room reverb over the whole mix (decay seconds). */
  reverb?: number;
  /** MP3 bitrate of the mix (kbps); 128 when absent. */
  kbps?: number;
}

const BASE: Omit<MixCondition, 'name'> = {
  speed: [0, 0],
  speedMode: 'turntable',
  eq: false,
  noiseDb: null,
  play: [75, 140],
  crossfade: [16, 32],
  unknownShare: 0.2,
};

/** What a club adds to the wider conditions: 30-45 s plays with 8-16 s blends, room reverb, noise, MP3 at 64 kbps. */
const CLUB: Omit<MixCondition, 'name'> = { ...BASE, play: [30, 45], crossfade: [8, 16], reverb: 0.8, noiseDb: 20, kbps: 64 };

/** The wide conditions: ±10-16% speed both ways, key shifts of 1-2 semitones, and both at once, in a club. */
export const HARD_CONDITIONS: MixCondition[] = [
  { ...CLUB, name: '30–45 s plays, reverb, 64 kbps' },
  { ...CLUB, name: '±10–16% turntable', speed: [0.1, 0.16] },
  { ...CLUB, name: '±10–16% key lock', speed: [0.1, 0.16], speedMode: 'keylock' },
  { ...CLUB, name: 'key shift ±1–2 st', keyShift: [1, 2] },
  { ...CLUB, name: 'key lock ±4–12% + ±1–2 st', speed: [0.04, 0.12], speedMode: 'keylock', keyShift: [1, 2] },
  { ...CLUB, name: 'all of these at once', speed: [0, 0.16], speedMode: 'either', keyShift: [0, 2], eq: true },
];

/** The benchmark's conditions: each row of its table (all with MP3 at 128 kbps, long crossfades, unknown tracks). */
export const CONDITIONS: MixCondition[] = [
  { ...BASE, name: '0%' },
  { ...BASE, name: '±2–4%', speed: [0.02, 0.04] },
  { ...BASE, name: '±6–8%', speed: [0.06, 0.08] },
  { ...BASE, name: 'key-lock ±6%', speed: [0.055, 0.065], speedMode: 'keylock' },
  { ...BASE, name: 'EQ and filter sweeps', eq: true },
  { ...BASE, name: 'noise 10 dB SNR', noiseDb: 10 },
  { ...BASE, name: '60 s plays', play: [60, 60] },
  { ...BASE, name: 'everything at once', speed: [0, 0.08], speedMode: 'either', eq: true, noiseDb: 10, play: [60, 120] },
  ...HARD_CONDITIONS,
];

export interface PlannedPlay {
  track: number;
  known: boolean;
  /** Seconds into the reference where the play starts. */
  sourceStart: number;
  speed: number;
  keyLock: boolean;
  /** Key shift in semitones on top of what the speed does to the pitch. */
  keyShift: number;
  /** Seconds in the mix: fade-in start, fade-in end, fade-out start, fade-out end. */
  start: number;
  fadeInEnd: number;
  fadeOutStart: number;
  end: number;
  eq: EqMove[];
}

export interface PlannedMix {
  seed: number;
  condition: MixCondition;
  durationSeconds: number;
  plays: PlannedPlay[];
}

/** A mix of about `minutes` from the test set's references under `condition`, decided by `seed`. */
export function planMix(set: TestSet, condition: MixCondition, seed: number, minutes: number): PlannedMix {
  const random = new Random(seed * 31 + 7);
  const known = random.sample(
    set.references.filter((r) => r.known),
    set.references.length,
  );
  const unknown = random.sample(
    set.references.filter((r) => !r.known),
    set.references.length,
  );
  const plays: PlannedPlay[] = [];
  let start = 0;
  let fadeIn = 0;
  let knownNext = 0;
  let unknownNext = 0;
  while (start < minutes * 60 - 30) {
    const isUnknown = unknown.length > 0 && random.chance(condition.unknownShare);
    const reference = isUnknown ? unknown[unknownNext++ % unknown.length] : known[knownNext++ % known.length];
    if (!reference) throw new Error('no references');
    const change = random.between(condition.speed[0], condition.speed[1]);
    const speed = 1 + (random.chance(0.5) ? change : -change);
    const keyLock = condition.speedMode === 'keylock' || (condition.speedMode === 'either' && random.chance(0.5));
    // Drawn only when the condition shifts keys, so the older conditions' mixes stay as they were. A key shift comes
    // with key lock (Key Sync, pitch'n'time) or at the original tempo; a turntable's pitch only follows its speed.
    const shift = condition.keyShift ? random.between(condition.keyShift[0], condition.keyShift[1]) : 0;
    const signed = shift === 0 ? 0 : random.chance(0.5) ? shift : -shift;
    const keyShift = keyLock || condition.speed[1] === 0 ? signed : 0;
    const fadeOut = random.between(condition.crossfade[0], condition.crossfade[1]);
    const duration = reference.recipe.durationSeconds;
    // The reference must last the whole play at its speed.
    const longest = (duration - 1) / speed - fadeIn / 2 - fadeOut / 2;
    const dominant = Math.min(longest, random.between(condition.play[0], condition.play[1]));
    const heard = fadeIn / 2 + dominant + fadeOut / 2;
    const end = start + heard;
    const sourceStart = random.between(0, Math.max(0, duration - 1 - heard * speed));
    const eq: EqMove[] = [];
    if (condition.eq) {
      // The classic blend: the incoming track's bass cut while it fades in, the outgoing one's swept away by a
      // high-pass filter; and in a third of plays, a resonant low-pass dip somewhere in the middle.
      if (fadeIn > 0) eq.push({ kind: 'lowshelf', from: 0, to: fadeIn, startHz: 250, endHz: 250, returns: false, q: 0.7, gainDb: -15 });
      eq.push({
        kind: 'highpass',
        from: heard - fadeOut,
        to: heard,
        startHz: 30,
        endHz: random.between(800, 2500),
        returns: false,
        q: 0.9,
        gainDb: 0,
      });
      if (random.chance(0.35)) {
        const at = random.between(fadeIn, Math.max(fadeIn, heard - fadeOut - 16));
        eq.push({
          kind: 'lowpass',
          from: at,
          to: at + random.between(8, 16),
          startHz: 12_000,
          endHz: random.between(400, 1200),
          returns: true,
          q: 2.5,
          gainDb: 0,
        });
      }
      if (random.chance(0.5)) {
        const gainDb = random.between(-10, 8);
        eq.push({ kind: 'peak', from: 0, to: heard, startHz: random.between(300, 3000), endHz: 1, returns: false, q: 1, gainDb });
        const last = eq[eq.length - 1] as EqMove;
        last.endHz = last.startHz;
      }
    }
    plays.push({
      track: reference.track,
      known: reference.known,
      sourceStart,
      speed,
      keyLock,
      keyShift,
      start,
      fadeInEnd: start + fadeIn,
      fadeOutStart: end - fadeOut,
      end,
      eq,
    });
    start = end - fadeOut;
    fadeIn = fadeOut;
  }
  // The last play does not fade out: the mix ends with it.
  const last = plays[plays.length - 1];
  if (last) {
    last.end = last.fadeOutStart;
    last.eq = last.eq.filter((move) => move.kind !== 'highpass');
  }
  return { seed, condition, durationSeconds: last ? last.end : 0, plays };
}

/** The mix's audio (mono, TEST_SAMPLE_RATE): each play rendered, sped up or down, EQ'd, faded and summed, plus noise. */
export function renderMix(set: TestSet, mix: PlannedMix): Float32Array {
  const rate = TEST_SAMPLE_RATE;
  const out = new Float32Array(Math.ceil(mix.durationSeconds * rate));
  for (const play of mix.plays) {
    const reference = set.references[play.track];
    if (!reference) throw new Error(`no reference ${play.track}`);
    const heard = play.end - play.start;
    const length = Math.round(heard * rate);
    const source = renderReference(reference.recipe, rate, play.sourceStart, play.sourceStart + heard * play.speed + 0.2);
    const audio =
      play.speed === 1 && play.keyShift === 0
        ? source.slice(0, length)
        : speedAndPitch(source, play.speed, play.keyLock, play.keyShift, length);
    applyEq(audio, rate, play.eq);
    const offset = Math.round(play.start * rate);
    const fadeIn = Math.round((play.fadeInEnd - play.start) * rate);
    const fadeOut = Math.round((play.end - play.fadeOutStart) * rate);
    const level = 0.8;
    for (let i = 0; i < length && offset + i < out.length; i += 1) {
      let gain = level;
      if (i < fadeIn) gain *= Math.sin((Math.PI / 2) * (i / fadeIn));
      const left = length - i;
      if (left < fadeOut) gain *= Math.sin((Math.PI / 2) * (left / fadeOut));
      out[offset + i] += (audio[i] as number) * gain;
    }
  }
  if (mix.condition.reverb) addReverb(out, rate, mix.condition.reverb, 0.3);
  if (mix.condition.noiseDb !== null) addPinkNoise(out, mix.condition.noiseDb, new Random(mix.seed * 13 + 5));
  let loudest = 0;
  for (let i = 0; i < out.length; i += 1) loudest = Math.max(loudest, Math.abs(out[i] as number));
  if (loudest > 0.99) for (let i = 0; i < out.length; i += 1) out[i] = ((out[i] as number) * 0.99) / loudest;
  return out;
}

/** A play the engine should find: a catalogue track, from the start of its fade in to the end of its fade out. */
export interface Truth {
  track: number;
  start: number;
  /** End of the fade in (the start when there is none). */
  fadeInEnd: number;
  end: number;
  speed: number;
  keyLock: boolean;
  /** The pitch change heard, semitones (the speed's on a turntable, plus any key shift). */
  pitchShift: number;
}

export const truthOf = (mix: PlannedMix): Truth[] =>
  mix.plays
    .filter((p) => p.known)
    .map((p) => ({
      track: p.track,
      start: p.start,
      fadeInEnd: p.fadeInEnd,
      end: p.end,
      speed: p.speed,
      keyLock: p.keyLock,
      pitchShift: (p.keyLock ? 0 : 12 * Math.log2(p.speed)) + p.keyShift,
    }));

export interface Scored {
  plays: number;
  found: number;
  detections: number;
  correct: number;
  falseDetections: number;
  /** Seconds between each correct detection's start and its play's fade-in start. */
  startErrors: number[];
  /** The same from the middle of the fade in (where the track becomes as loud as the one it replaces). */
  midFadeErrors: number[];
  /** Per correct detection that reports them: |found speed - played speed|, |found pitch shift - heard| (semitones). */
  speedErrors: number[];
  pitchErrors: number[];
  /** Confidences of the correct detections and of the false ones. */
  trueConfidences: number[];
  falseConfidences: number[];
}

/** What a detection may report besides its track and times. */
export interface ScoredDetection {
  track: number;
  start: number;
  end: number;
  speed?: number;
  pitchShift?: number;
  confidence?: number;
}

/**
 * Scores detections against the truth: a detection is correct when it names the track of a catalogue play it
 * overlaps in time (each play counts once: a second detection of it is a false one).
 */
export function score(truth: Truth[], detections: ScoredDetection[]): Scored {
  const used = new Set<number>();
  let correct = 0;
  const startErrors: number[] = [];
  const midFadeErrors: number[] = [];
  const speedErrors: number[] = [];
  const pitchErrors: number[] = [];
  const trueConfidences: number[] = [];
  const falseConfidences: number[] = [];
  for (const detection of detections) {
    let best = -1;
    let bestOverlap = 0;
    truth.forEach((play, i) => {
      if (used.has(i) || play.track !== detection.track) return;
      const overlap = Math.min(play.end, detection.end) - Math.max(play.start, detection.start);
      if (overlap > bestOverlap) {
        bestOverlap = overlap;
        best = i;
      }
    });
    if (best >= 0) {
      used.add(best);
      correct += 1;
      const play = truth[best] as Truth;
      startErrors.push(Math.abs(detection.start - play.start));
      midFadeErrors.push(Math.abs(detection.start - (play.start + play.fadeInEnd) / 2));
      if (detection.speed !== undefined) speedErrors.push(Math.abs(detection.speed - play.speed));
      if (detection.pitchShift !== undefined) pitchErrors.push(Math.abs(detection.pitchShift - play.pitchShift));
      if (detection.confidence !== undefined) trueConfidences.push(detection.confidence);
    } else if (detection.confidence !== undefined) falseConfidences.push(detection.confidence);
  }
  return {
    plays: truth.length,
    found: used.size,
    detections: detections.length,
    correct,
    falseDetections: detections.length - correct,
    startErrors,
    midFadeErrors,
    speedErrors,
    pitchErrors,
    trueConfidences,
    falseConfidences,
  };
}
