// A worker thread of the demo world's build (see DemoWorkers): renders and encodes a mix, or renders and fingerprints
// a reference, so the server's own thread only writes files and rows while it serves.
import { getPriority, setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { fingerprintReference } from '../modules/recognition/fingerprint.js';
import { DEMO_THREAD_NICENESS, type DemoJob, type DemoReply } from './demo-workers.js';
import { mixAudio, peaksOf } from './mix-audio.js';
import { createMp3Encoder, DEMO_MP3_QUALITY } from './mp3-encoder.js';
import { MIX_BITRATE, MIX_SAMPLE_RATE, planWorld } from './plan.js';
import { renderReference } from './synth.js';

const port = parentPort;
if (!port) throw new Error('demo-worker runs as a worker thread');
// The build is background work on every core: the server's own thread (its start, its answers, the demo world's rows
// that the first screen waits for) and PostgreSQL go first. Linux keeps a nice value per thread and reads and sets the
// calling thread's on pid 0; elsewhere that would change the whole server's. Relative to the server's own, at most 19.
if (process.platform === 'linux') setPriority(Math.min(19, getPriority() + DEMO_THREAD_NICENESS));
const world = planWorld();
// Compiling the encoder is the costly part of making one: once per thread, used again for every file.
const encode = await createMp3Encoder();
const MIX_MP3 = { sampleRate: MIX_SAMPLE_RATE, kbps: MIX_BITRATE, quality: DEMO_MP3_QUALITY };

function run(job: DemoJob): { reply: DemoReply; transfer: ArrayBuffer[] } {
  if (job.kind === 'mix') {
    const mix = world.mixes[job.index];
    if (!mix) throw new Error(`no demo mix ${job.index}`);
    const samples = mixAudio(mix, world, MIX_SAMPLE_RATE);
    const mp3 = encode(samples, MIX_MP3);
    return {
      reply: { kind: 'mix', mp3, durationSeconds: samples.length / MIX_SAMPLE_RATE, peaks: peaksOf(samples) },
      transfer: [mp3.buffer as ArrayBuffer],
    };
  }
  const reference = world.references[job.index];
  if (!reference) throw new Error(`no demo reference ${job.index}`);
  // Rendered at the mixes' rate, like the audio recognition will hear: and a third fewer samples to make and resample.
  const fingerprints = fingerprintReference(renderReference(reference.recipe, MIX_SAMPLE_RATE), MIX_SAMPLE_RATE);
  return {
    reply: { kind: 'reference', ...fingerprints },
    transfer: [fingerprints.hashes.buffer as ArrayBuffer, fingerprints.data.buffer as ArrayBuffer],
  };
}

port.on('message', ({ id, job }: { id: number; job: DemoJob }) => {
  try {
    const { reply, transfer } = run(job);
    port.postMessage({ id, reply }, transfer);
  } catch (error) {
    port.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
