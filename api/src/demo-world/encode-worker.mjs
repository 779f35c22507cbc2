// Encodes mono float samples to MP3 off the main thread, with LAME compiled to WebAssembly. One encoder per thread,
// configured again for every file: compiling the encoder once per thread (not once per file) is what keeps the demo
// world's build short. Plain JavaScript, so the worker starts without a TypeScript loader.
import { parentPort, workerData } from 'node:worker_threads';
import { createMp3Encoder } from 'wasm-media-encoders';

const { sampleRate, kilobitrate } = workerData;
const BLOCK = 9216;
const encoder = await createMp3Encoder();

function encode(samples) {
  encoder.configure({ channels: 1, sampleRate, bitrate: kilobitrate });
  const parts = [];
  for (let start = 0; start < samples.length; start += BLOCK) {
    // The encoder owns the returned bytes until its next call: copy them out.
    parts.push(encoder.encode([samples.subarray(start, start + BLOCK)]).slice());
  }
  parts.push(encoder.finalize().slice());
  const mp3 = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    mp3.set(part, offset);
    offset += part.length;
  }
  return mp3.buffer;
}

parentPort.on('message', ({ id, samples }) => {
  try {
    const mp3 = encode(samples);
    parentPort.postMessage({ id, mp3 }, [mp3]);
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
