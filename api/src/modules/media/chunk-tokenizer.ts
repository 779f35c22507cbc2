import { AbstractTokenizer, EndOfStreamError, type IFileInfo, type IReadChunkOptions } from 'strtok3';

/**
 * A strtok3 tokenizer over chunks handed to it as an upload arrives, for music-metadata to read while the same bytes
 * stream into storage. It keeps only what the parser has not consumed yet (about `highWaterMark`), and it is several
 * times faster than strtok3's stream tokenizer for the parser's many small reads (one header per MP3 frame).
 */
export class ChunkTokenizer extends AbstractTokenizer {
  fileInfo: IFileInfo = {};
  private readonly chunks: Uint8Array[] = [];
  /** Bytes of chunks[0] already consumed. */
  private head = 0;
  private buffered = 0;
  private ended = false;
  private parserWaiting: (() => void) | null = null;
  private producerWaiting: (() => void) | null = null;

  constructor(
    private readonly highWaterMark = 1024 * 1024,
    // No single read may ask for more: a forged header cannot make the parser hold a file's worth of bytes.
    maxBufferSize = 16 * 1024 * 1024,
  ) {
    super({ maxBufferSize });
  }

  /** Adds bytes; resolves when the parser has room for more (or is waiting for them). */
  push(chunk: Uint8Array): Promise<void> {
    if (this.ended || chunk.length === 0) return Promise.resolve();
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    this.wakeParser();
    if (this.buffered <= this.highWaterMark) return Promise.resolve();
    return new Promise((resolve) => {
      this.producerWaiting = resolve;
    });
  }

  /** No more bytes will come: reads past the end now see the end of the stream. */
  end(): void {
    this.ended = true;
    this.wakeParser();
    this.wakeProducer();
  }

  private wakeParser(): void {
    const waiting = this.parserWaiting;
    this.parserWaiting = null;
    waiting?.();
  }

  private wakeProducer(): void {
    const waiting = this.producerWaiting;
    this.producerWaiting = null;
    waiting?.();
  }

  /** Waits until `length` bytes are buffered or the input has ended. */
  private async fill(length: number): Promise<void> {
    while (this.buffered < length && !this.ended) {
      // The parser needs more than the high-water mark allows: let the producer go on.
      this.wakeProducer();
      await new Promise<void>((resolve) => {
        this.parserWaiting = resolve;
      });
    }
  }

  /** Copies `length` bytes starting `skip` bytes ahead into `target` (when given), consuming them when `consume`. */
  private take(target: Uint8Array | null, skip: number, length: number, consume: boolean): void {
    let chunkIndex = 0;
    let at = this.head + skip;
    while (chunkIndex < this.chunks.length && at >= this.chunks[chunkIndex].length) {
      at -= this.chunks[chunkIndex].length;
      chunkIndex += 1;
    }
    let copied = 0;
    while (copied < length) {
      const chunk = this.chunks[chunkIndex];
      const part = Math.min(chunk.length - at, length - copied);
      target?.set(chunk.subarray(at, at + part), copied);
      copied += part;
      at += part;
      if (at === chunk.length) {
        chunkIndex += 1;
        at = 0;
      }
    }
    if (!consume) return;
    let remaining = skip + length;
    while (remaining > 0) {
      const left = this.chunks[0].length - this.head;
      if (remaining < left) {
        this.head += remaining;
        break;
      }
      remaining -= left;
      this.chunks.shift();
      this.head = 0;
    }
    this.buffered -= skip + length;
    this.position += skip + length;
    if (this.buffered <= this.highWaterMark) this.wakeProducer();
  }

  async peekBuffer(target: Uint8Array, options?: IReadChunkOptions): Promise<number> {
    const { length, position, mayBeLess } = this.normalizeOptions(target, options);
    const skip = position - this.position;
    this.validateBufferSize(skip + length);
    await this.fill(skip + length);
    const available = Math.max(0, Math.min(length, this.buffered - skip));
    if (!mayBeLess && available < length) throw new EndOfStreamError();
    this.take(target, skip, available, false);
    return available;
  }

  async readBuffer(target: Uint8Array, options?: IReadChunkOptions): Promise<number> {
    const { length, position, mayBeLess } = this.normalizeOptions(target, options);
    const skip = position - this.position;
    if (skip > 0) await this.ignore(skip);
    this.validateBufferSize(length);
    await this.fill(length);
    const available = Math.min(length, this.buffered);
    if (!mayBeLess && available < length) throw new EndOfStreamError();
    this.take(target, 0, available, true);
    return available;
  }

  override async ignore(length: number): Promise<number> {
    let ignored = 0;
    while (ignored < length) {
      await this.fill(1);
      if (this.buffered === 0) break;
      const part = Math.min(length - ignored, this.buffered);
      this.take(null, 0, part, true);
      ignored += part;
    }
    return ignored;
  }

  supportsRandomAccess(): boolean {
    return false;
  }

  override async close(): Promise<void> {
    this.end();
    await super.close();
  }
}
