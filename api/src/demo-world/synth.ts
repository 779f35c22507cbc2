import { Random } from '../shared/random.js';
import { DEMO_SEED } from './seed.js';

/** Demo audio is mono at this rate: plenty for synthesised music, and quick to encode. */
export const SAMPLE_RATE = 22_050;

const SCALES = {
  minor: [0, 2, 3, 5, 7, 8, 10],
  major: [0, 2, 4, 5, 7, 9, 11],
  dorian: [0, 2, 3, 5, 7, 9, 10],
  phrygian: [0, 1, 3, 5, 7, 8, 10],
} as const;
type ScaleName = keyof typeof SCALES;
type Wave = 'sine' | 'saw' | 'square' | 'triangle';
const WAVES: readonly Wave[] = ['sine', 'saw', 'square', 'triangle'];
type Groove = 'four-on-the-floor' | 'broken' | 'halftime';
const LAYERS = ['drums', 'bass', 'pad', 'lead'] as const;
type Layer = (typeof LAYERS)[number];
const STEPS = 64; // four bars of sixteenth notes: one phrase

/** Styles the references cycle through, so the catalogue spans 70 to 175 BPM and three kinds of drum pattern. */
const STYLES: readonly { minBpm: number; maxBpm: number; groove: Groove; maxSwing: number }[] = [
  { minBpm: 118, maxBpm: 127, groove: 'four-on-the-floor', maxSwing: 0.04 }, // house
  { minBpm: 128, maxBpm: 138, groove: 'four-on-the-floor', maxSwing: 0 }, // techno
  { minBpm: 70, maxBpm: 96, groove: 'halftime', maxSwing: 0.1 }, // hip hop, downtempo
  { minBpm: 128, maxBpm: 134, groove: 'broken', maxSwing: 0.22 }, // garage shuffle
  { minBpm: 96, maxBpm: 116, groove: 'broken', maxSwing: 0.06 }, // broken beat, nu jazz
  { minBpm: 138, maxBpm: 150, groove: 'four-on-the-floor', maxSwing: 0 }, // driving, EDM
  { minBpm: 164, maxBpm: 175, groove: 'broken', maxSwing: 0 }, // drum and bass
];

/** Everything that makes a reference track itself: tempo, key, scale, timbres, rhythms and arrangement. */
export interface ReferenceRecipe {
  seed: number;
  bpm: number;
  groove: Groove;
  /** MIDI note of the key's root, in the bass register. */
  rootNote: number;
  scale: ScaleName;
  bassWave: Wave;
  leadWave: Wave;
  /** 0 to 1: how open the pad's harmonics are. */
  brightness: number;
  swing: number;
  kick: boolean[];
  snare: boolean[];
  hat: boolean[];
  /** Scale degree per step, or null for a rest. */
  bass: (number | null)[];
  lead: (number | null)[];
  /** Four chords (scale degrees of their roots), one per bar. */
  chords: number[];
  /** Per phrase of the arrangement, the loudness of each layer. */
  sections: Record<Layer, number>[];
  durationSeconds: number;
}

const stepPattern = (random: Random, density: number, anchors: number[]) =>
  Array.from({ length: STEPS }, (_, step) => anchors.includes(step % 16) || random.chance(density));

/** The recipe of reference track `index`: deterministic from `seed` and `index`. */
export function referenceRecipe(seed: number, index: number): ReferenceRecipe {
  const random = new Random(seed * 7919 + index * 104_729 + 1);
  const style = STYLES[index % STYLES.length] ?? STYLES[0];
  if (!style) throw new Error('no styles');
  const notes = (density: number, span: number) =>
    Array.from({ length: STEPS }, () => (random.chance(density) ? random.int(0, span) : null));
  const sectionsCount = random.int(3, 5);
  const kicks = { 'four-on-the-floor': [0, 4, 8, 12], broken: [0, 10], halftime: [0, 7, 10] }[style.groove];
  return {
    seed: random.int(1, 2 ** 30),
    bpm: Math.round(random.between(style.minBpm, style.maxBpm)),
    groove: style.groove,
    rootNote: 33 + random.int(0, 11),
    scale: random.pick(Object.keys(SCALES) as ScaleName[]),
    bassWave: random.pick(WAVES),
    leadWave: random.pick(WAVES),
    brightness: random.between(0.2, 1),
    swing: random.between(0, style.maxSwing),
    kick: stepPattern(random, style.groove === 'four-on-the-floor' ? 0.04 : 0.1, kicks),
    snare: stepPattern(random, 0.04, style.groove === 'halftime' ? [8] : [4, 12]),
    hat: stepPattern(random, random.between(0.2, 0.7), [2, 6, 10, 14]),
    bass: notes(random.between(0.3, 0.6), 4),
    lead: notes(random.between(0.15, 0.45), 9),
    chords: Array.from({ length: 4 }, () => random.int(0, 6)),
    sections: Array.from({ length: sectionsCount }, (_, section) =>
      Object.fromEntries(
        LAYERS.map((layer) => [layer, section === 0 && layer !== 'pad' && layer !== 'drums' ? 0.3 : random.between(0.45, 1)]),
      ),
    ) as Record<Layer, number>[],
    durationSeconds: random.int(150, 230),
  };
}

const hz = (midi: number) => 440 * 2 ** ((midi - 69) / 12);

/** One cycle of a waveform; `cycle` is from 0 to 1. */
function oscillator(wave: Wave, cycle: number): number {
  switch (wave) {
    case 'sine':
      return Math.sin(2 * Math.PI * cycle);
    case 'saw':
      return 2 * cycle - 1;
    case 'square':
      return cycle < 0.5 ? 0.8 : -0.8;
    case 'triangle':
      return 4 * Math.abs(cycle - 0.5) - 1;
  }
}

function noteOf(recipe: ReferenceRecipe, degree: number, octave: number): number {
  const scale = SCALES[recipe.scale];
  const within = ((degree % scale.length) + scale.length) % scale.length;
  const octaves = Math.floor(degree / scale.length) + octave;
  return recipe.rootNote + (scale[within] ?? 0) + 12 * octaves;
}

/** Adds a decaying note: linear attack over `1 / attackRate` seconds, then exponential decay. */
function addNote(
  target: Float32Array,
  start: number,
  count: number,
  sampleRate: number,
  note: { wave: Wave; frequency: number; gain: number; attackRate: number; decayRate: number },
) {
  const end = Math.min(target.length, start + count);
  const step = note.frequency / sampleRate;
  const decay = Math.exp(-note.decayRate / sampleRate);
  let cycle = 0;
  let envelope = note.gain;
  for (let at = start, i = 0; at < end; at += 1, i += 1) {
    const attack = Math.min(1, (i / sampleRate) * note.attackRate);
    target[at] += oscillator(note.wave, cycle) * envelope * attack;
    envelope *= decay;
    cycle += step;
    if (cycle >= 1) cycle -= 1;
  }
}

/** A kick drum: a sine whose pitch falls from 150 Hz to 50 Hz. */
function addKick(target: Float32Array, start: number, sampleRate: number) {
  const end = Math.min(target.length, start + Math.round(0.35 * sampleRate));
  const pitchDecay = Math.exp(-18 / sampleRate);
  const loudnessDecay = Math.exp(-9 / sampleRate);
  let sweep = 1;
  let envelope = 0.9;
  let cycle = 0;
  for (let at = start; at < end; at += 1) {
    target[at] += Math.sin(2 * Math.PI * cycle) * envelope;
    cycle += (50 + 100 * sweep) / sampleRate;
    sweep *= pitchDecay;
    envelope *= loudnessDecay;
  }
}

/** A snare (noise over a 190 Hz body) or, with `hat`, a hi-hat (high-passed noise, short). */
function addNoiseHit(target: Float32Array, start: number, sampleRate: number, noise: Random, hat: boolean) {
  const end = Math.min(target.length, start + Math.round((hat ? 0.06 : 0.22) * sampleRate));
  const decay = Math.exp(-(hat ? 60 : 20) / sampleRate);
  let envelope = 1;
  let previous = 0;
  for (let at = start, i = 0; at < end; at += 1, i += 1) {
    const white = noise.next() * 2 - 1;
    const sound = hat ? (white - previous) * 0.18 : white * 0.55 + Math.sin((2 * Math.PI * 190 * i) / sampleRate) * 0.3;
    previous = white;
    target[at] += sound * envelope;
    envelope *= decay;
  }
}

/** A bar-long chord of three voices (each with its octave, by `brightness`) with a slow attack and a short release. */
function addPadChord(target: Float32Array, start: number, count: number, sampleRate: number, frequencies: number[], brightness: number) {
  const seconds = count / sampleRate;
  for (const frequency of frequencies) {
    // A rotating phasor: one multiplication per sample instead of two sines.
    const turn = (2 * Math.PI * frequency) / sampleRate;
    const cosTurn = Math.cos(turn);
    const sinTurn = Math.sin(turn);
    let cos = 1;
    let sin = 0;
    for (let i = 0; i < count; i += 1) {
      const t = i / sampleRate;
      const envelope = Math.min(1, t * 3) * Math.min(1, (seconds - t) * 8);
      target[start + i] += (sin + brightness * 0.3 * 2 * sin * cos) * 0.07 * envelope;
      const nextCos = cos * cosTurn - sin * sinTurn;
      sin = sin * cosTurn + cos * sinTurn;
      cos = nextCos;
    }
  }
}

/** One phrase (four bars) of each layer; the track repeats it through its arrangement. */
function renderLayers(recipe: ReferenceRecipe, sampleRate: number): Record<Layer, Float32Array> {
  const stepSeconds = 60 / recipe.bpm / 4;
  const length = Math.round(stepSeconds * STEPS * sampleRate);
  const layers = Object.fromEntries(LAYERS.map((layer) => [layer, new Float32Array(length)])) as Record<Layer, Float32Array>;
  const noise = new Random(recipe.seed);
  const stepStart = (step: number) => Math.round((step + (step % 2 === 1 ? recipe.swing : 0)) * stepSeconds * sampleRate);

  for (let step = 0; step < STEPS; step += 1) {
    const start = stepStart(step);
    if (recipe.kick[step]) addKick(layers.drums, start, sampleRate);
    if (recipe.snare[step]) addNoiseHit(layers.drums, start, sampleRate, noise, false);
    if (recipe.hat[step]) addNoiseHit(layers.drums, start, sampleRate, noise, true);
    const bassDegree = recipe.bass[step];
    if (bassDegree !== null && bassDegree !== undefined) {
      const frequency = hz(noteOf(recipe, bassDegree + (recipe.chords[Math.floor(step / 16)] ?? 0), 0));
      const note = { wave: recipe.bassWave, frequency, gain: 0.42, attackRate: 200, decayRate: 4 };
      addNote(layers.bass, start, Math.round(stepSeconds * 1.8 * sampleRate), sampleRate, note);
    }
    const leadDegree = recipe.lead[step];
    if (leadDegree !== null && leadDegree !== undefined) {
      const frequency = hz(noteOf(recipe, leadDegree, 2));
      const note = { wave: recipe.leadWave, frequency, gain: 0.16, attackRate: 300, decayRate: 7 };
      addNote(layers.lead, start, Math.round(stepSeconds * 2.5 * sampleRate), sampleRate, note);
    }
  }
  const barLength = Math.round(16 * stepSeconds * sampleRate);
  for (let bar = 0; bar < 4; bar += 1) {
    const chord = recipe.chords[bar] ?? 0;
    const frequencies = [0, 2, 4].map((interval) => hz(noteOf(recipe, chord + interval, 1)));
    addPadChord(layers.pad, bar * barLength, Math.min(barLength - 1, length - bar * barLength), sampleRate, frequencies, recipe.brightness);
  }
  return layers;
}

/** The phrase mixed once per section of the arrangement (with a soft clip), so rendering a track is copying. */
function renderSections(recipe: ReferenceRecipe, sampleRate: number): Float32Array[] {
  const { drums, bass, pad, lead } = renderLayers(recipe, sampleRate);
  return recipe.sections.map((gains) => {
    const mixed = new Float32Array(drums.length);
    for (let i = 0; i < mixed.length; i += 1) {
      const sum = drums[i] * gains.drums + bass[i] * gains.bass + pad[i] * gains.pad + lead[i] * gains.lead;
      mixed[i] = sum / (1 + Math.abs(sum));
    }
    return mixed;
  });
}

// Mixes draw on a dozen references at a time: keeping the most recent ones spares rendering them again.
const sectionCache = new Map<string, Float32Array[]>();
const SECTION_CACHE_SIZE = 16;

function sectionsOf(recipe: ReferenceRecipe, sampleRate: number): Float32Array[] {
  const key = `${recipe.seed}:${sampleRate}`;
  let sections = sectionCache.get(key);
  if (sections) {
    sectionCache.delete(key); // re-inserted below: the map's order is the order of use
  } else {
    sections = renderSections(recipe, sampleRate);
    if (sectionCache.size >= SECTION_CACHE_SIZE) sectionCache.delete(sectionCache.keys().next().value as string);
  }
  sectionCache.set(key, sections);
  return sections;
}

/**
 * Seconds `from` to `to` of a reference track as mono samples (-1 to 1): reference `index` of the demo catalogue
 * (see `referenceTrackId` in plan.ts for its catalogue track), or any recipe. The same reference always gives the
 * same samples: this is how recognition tests get a reference's audio back.
 */
export function renderReference(reference: number | ReferenceRecipe, sampleRate = SAMPLE_RATE, from = 0, to?: number): Float32Array {
  const recipe = typeof reference === 'number' ? referenceRecipe(DEMO_SEED, reference) : reference;
  const sections = sectionsOf(recipe, sampleRate);
  const phraseLength = sections[0]?.length ?? 0;
  const first = Math.round(from * sampleRate);
  const out = new Float32Array(Math.max(0, Math.round((to ?? recipe.durationSeconds) * sampleRate) - first));
  for (let written = 0; written < out.length; ) {
    const at = first + written;
    const phrase = Math.floor(at / phraseLength);
    const within = at - phrase * phraseLength;
    const count = Math.min(phraseLength - within, out.length - written);
    const section = sections[phrase % sections.length] as Float32Array;
    out.set(section.subarray(within, within + count), written);
    written += count;
  }
  return out;
}
