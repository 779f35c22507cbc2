// The waveform decoder's thread (plain JavaScript, so it runs the same under tsx, vitest and node): decodes MP3
// chunks with mpg123 compiled to WebAssembly and keeps only the loudest sample of each block, so neither the PCM nor
// the CPU it costs ever reaches the server's main thread. Protocol: { chunk } -> { accepted }, { end } -> { result }.
import { parentPort, workerData } from 'node:worker_threads';
import { MPEGDecoder } from 'mpg123-decoder';

const { estimatedSeconds, peakCount, blocksPerPeak, fallbackBlockSamples } = workerData;

// mpg123-decoder prints every undecodable frame on the console; the errors are counted from its results instead.
console.error = () => undefined;

const decoder = new MPEGDecoder();
const ready = decoder.ready;

const blocks = [];
let blockSamples = 0;
let current = 0;
let filled = 0;
let samples = 0;
let sampleRate = 0;
let errors = 0;

function collect(channels, count) {
  let index = 0;
  while (index < count) {
    const take = Math.min(blockSamples - filled, count - index);
    let loudest = current;
    for (const channel of channels) {
      for (let at = index; at < index + take; at += 1) {
        const value = channel[at] < 0 ? -channel[at] : channel[at];
        if (value > loudest) loudest = value;
      }
    }
    current = loudest;
    filled += take;
    index += take;
    if (filled === blockSamples) {
      blocks.push(current);
      current = 0;
      filled = 0;
    }
  }
}

parentPort.on('message', async (message) => {
  await ready;
  if (message.chunk) {
    const decoded = decoder.decode(message.chunk);
    errors += decoded.errors.length;
    if (decoded.samplesDecoded > 0) {
      sampleRate = decoded.sampleRate;
      if (blockSamples === 0) {
        blockSamples = estimatedSeconds
          ? Math.max(1, Math.floor((estimatedSeconds * sampleRate) / (peakCount * blocksPerPeak)))
          : fallbackBlockSamples;
      }
      collect(decoded.channelData, decoded.samplesDecoded);
      samples += decoded.samplesDecoded;
    }
    parentPort.postMessage({ accepted: true });
    return;
  }
  if (filled > 0) blocks.push(current);
  decoder.free();
  const peaks = Float32Array.from(blocks);
  parentPort.postMessage({ result: { peaks, samples, sampleRate, errors } }, [peaks.buffer]);
});
