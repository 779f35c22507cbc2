/**
 * Recognition wired to the catalogue: catalogue tracks' audio fingerprinted into PostgreSQL (`recognition_reference`,
 * `recognition_fingerprint`), the in-memory index built from those rows once per process (and again when references
 * change), and mixes identified against it. The engine itself (recognition.ts) knows nothing of the database.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../db/orm.js';
import { type CatalogueTrack, type Detection, type Fingerprints, nameDetections } from './recognition.js';
import { type AudioSource, RecognitionThread } from './recognition-thread.js';

export type { AudioSource };

export interface IdentifyProgress {
  /** Seconds of audio scanned. */
  seconds: number;
  /** Share of the audio scanned, when its duration is known. */
  fraction: number | null;
  /** Detections closed so far (more may follow; overlaps are resolved at the end). */
  detections: number;
  /** Catalogue tracks found so far, in time order (provisional: `identify`'s answer has the final word). */
  found: Omit<Detection, 'confidence' | 'speed' | 'pitchShift'>[];
}

export interface IdentifyOptions {
  durationSeconds?: number | null;
  onProgress?: (progress: IdentifyProgress) => void;
}

export interface ReferenceSummary {
  referenceNo: number;
  trackId: string;
  seconds: number;
  entries: number;
}

/** Rows per INSERT when storing fingerprints. */
const INSERT_BATCH = 50_000;
/** References read per SELECT when building the index. */
const LOAD_BATCH = 200;

const intArray = (values: ArrayLike<number>) => `{${Array.from(values).join(',')}}`;

/** The index the recognition thread holds: which references (version), and the catalogue tracks they are. */
export interface LoadedIndex {
  version: string;
  /** When the newest reference in it was indexed, as PostgreSQL writes it (microseconds, which a Date would lose); null: none. */
  newestAt: string | null;
  catalogue: Map<number, CatalogueTrack>;
  entries: number;
}

/**
 * Decoding, fingerprinting and matching run on a worker thread (RecognitionThread), which holds the in-memory index:
 * the event loop only reads rows and moves bytes.
 */
export class RecognitionService {
  private cached: LoadedIndex | null = null;
  private loading: Promise<LoadedIndex> | null = null;
  private readonly thread = new RecognitionThread();
  private readonly referenceListeners = new Set<() => void>();

  constructor(private readonly orm: Orm) {}

  /** Called after a reference was stored (in this process): mixes recognised before it may hold it. */
  onReferencesChanged(listener: () => void): () => void {
    this.referenceListeners.add(listener);
    return () => this.referenceListeners.delete(listener);
  }

  /** Stops the recognition thread. */
  async close(): Promise<void> {
    await this.thread.close();
  }

  private em(): EntityManager {
    return this.orm.em.fork() as EntityManager;
  }

  /** A track's fingerprints from its audio (MP3 or WAV), decoded as a stream. */
  async fingerprint(source: AudioSource): Promise<Fingerprints> {
    return this.thread.fingerprint(source);
  }

  /** Fingerprints a catalogue track's audio and stores it, replacing what the track had, in one transaction. */
  async indexReference(trackId: string, source: AudioSource): Promise<ReferenceSummary> {
    return this.storeFingerprints(trackId, await this.fingerprint(source));
  }

  async storeFingerprints(trackId: string, fingerprints: Fingerprints): Promise<ReferenceSummary> {
    const summary = await this.em().transactional(async (em) => {
      // Lock the track: two indexings of one track queue up instead of racing on the unique reference.
      const [track] = await em.execute<{ id: string }[]>('select id from track where id = ? for update', [trackId]);
      if (!track) throw new Error(`No catalogue track ${trackId}`);
      await em.execute('delete from recognition_reference where track_id = ?', [trackId]);
      const [reference] = await em.execute<{ reference_no: number }[]>(
        'insert into recognition_reference (track_id, seconds, indexed_at) values (?, ?, now()) returning reference_no',
        [trackId, fingerprints.seconds],
      );
      const referenceNo = (reference as { reference_no: number }).reference_no;
      const signed = Int32Array.from(fingerprints.data);
      for (let at = 0; at < fingerprints.hashes.length; at += INSERT_BATCH) {
        const end = Math.min(fingerprints.hashes.length, at + INSERT_BATCH);
        await em.execute(
          `insert into recognition_fingerprint (reference_no, hash, data)
           select ?, u.hash, u.data from unnest(?::int4[], ?::int4[]) as u(hash, data)
           on conflict do nothing`,
          [referenceNo, intArray(fingerprints.hashes.subarray(at, end)), intArray(signed.subarray(at, end))],
        );
      }
      return { referenceNo, trackId, seconds: fingerprints.seconds, entries: fingerprints.hashes.length };
    });
    for (const listener of this.referenceListeners) listener();
    return summary;
  }

  /**
   * The other indexed track sharing the most of these fingerprint hashes, with how many it shares (a hash found on a
   * reference counts once per entry there): how a new reference is checked against the index before it is accepted.
   */
  async closestReference(exceptTrackId: string, hashes: Uint32Array): Promise<{ trackId: string; hits: number } | null> {
    const [row] = await this.em().execute<{ track_id: string; hits: number }[]>(
      `select r.track_id, count(*)::int as hits
         from recognition_fingerprint f join recognition_reference r on r.reference_no = f.reference_no
        where f.hash = any(?::int4[]) and r.track_id <> ?
        group by r.track_id order by hits desc, r.track_id limit 1`,
      [intArray([...new Set(hashes)]), exceptTrackId],
    );
    return row ? { trackId: row.track_id, hits: row.hits } : null;
  }

  /** Takes a track's reference out of the index; answers whether it had one. */
  async removeReference(trackId: string): Promise<boolean> {
    const removed = await this.em().execute<{ reference_no: number }[]>(
      'delete from recognition_reference where track_id = ? returning reference_no',
      [trackId],
    );
    if (removed.length > 0) for (const listener of this.referenceListeners) listener();
    return removed.length > 0;
  }

  /** How many tracks are fingerprinted. */
  async referenceCount(): Promise<number> {
    const [row] = await this.em().execute<{ count: string }[]>('select count(*) as count from recognition_reference');
    return Number(row?.count ?? 0);
  }

  /** Whether a track is fingerprinted already. */
  async isIndexed(trackId: string): Promise<boolean> {
    const rows = await this.em().execute('select 1 from recognition_reference where track_id = ?', [trackId]);
    return rows.length > 0;
  }

  private async version(): Promise<{ version: string; newestAt: string | null }> {
    const [row] = await this.em().execute<{ count: string; max: number | null; newest: string | null }[]>(
      'select count(*) as count, max(reference_no) as max, max(indexed_at)::text as newest from recognition_reference',
    );
    return { version: `${row?.count ?? 0}:${row?.max ?? 0}`, newestAt: row?.newest ?? null };
  }

  /**
   * The index of every stored reference, built once per process (on the recognition thread) and cached; rebuilt when
   * references were added, replaced or removed since (one cheap query tells), or when the thread was restarted.
   */
  async loadIndex(): Promise<LoadedIndex> {
    const { version, newestAt } = await this.version();
    if (this.cached?.version === version && this.thread.loadedVersion === version) return this.cached;
    this.loading ??= this.build(version, newestAt).finally(() => {
      this.loading = null;
    });
    const loaded = await this.loading;
    this.cached = loaded;
    return loaded;
  }

  private async build(version: string, newestAt: string | null): Promise<LoadedIndex> {
    const em = this.em();
    const references = await em.execute<{ reference_no: number; track_id: string; title: string; external_id: string | null }[]>(
      `select r.reference_no, r.track_id, t.title, t.external_id
         from recognition_reference r join track t on t.id = r.track_id order by r.reference_no`,
    );
    const catalogue = new Map<number, CatalogueTrack>();
    for (const row of references)
      catalogue.set(row.reference_no, { trackId: row.track_id, externalId: row.external_id ?? row.track_id, title: row.title });
    let entries = 0;
    async function* batches() {
      for (let at = 0; at < references.length; at += LOAD_BATCH) {
        const numbers = references.slice(at, at + LOAD_BATCH).map((row) => row.reference_no);
        const rows = await em.execute<{ reference_no: number; hash: number; data: number }[]>(
          'select reference_no, hash, data from recognition_fingerprint where reference_no = any(?::int4[]) order by reference_no',
          [intArray(numbers)],
        );
        entries += rows.length;
        yield {
          hashes: Uint32Array.from(rows, (row) => row.hash),
          tracks: Uint32Array.from(rows, (row) => row.reference_no),
          data: Uint32Array.from(rows, (row) => row.data >>> 0),
        };
      }
    }
    await this.thread.loadIndex(version, batches());
    return { version, newestAt, catalogue, entries };
  }

  /** The catalogue tracks playing in a mix's audio (MP3 or WAV, read as a stream), in time order. */
  async identify(source: AudioSource, options: IdentifyOptions = {}): Promise<Detection[]> {
    const { catalogue } = await this.loadIndex();
    const duration = options.durationSeconds ?? null;
    const { onProgress } = options;
    const raw = await this.thread.identify(
      source,
      onProgress &&
        ((progress) => {
          const found: Omit<Detection, 'confidence' | 'speed' | 'pitchShift'>[] = [];
          for (const hit of progress.found) {
            const track = catalogue.get(hit.track);
            if (track) found.push({ ...track, start: Math.round(hit.start * 10) / 10, end: Math.round(hit.end * 10) / 10 });
          }
          onProgress({
            seconds: progress.seconds,
            detections: progress.detections,
            fraction: duration ? Math.min(1, progress.seconds / duration) : null,
            found,
          });
        }),
    );
    return nameDetections(raw, (track) => catalogue.get(track)).sort((a, b) => a.start - b.start);
  }
}
