import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../../db/orm.js';
import { type CatalogueInput, type LookupRow, parseLookupRows } from './catalogue.inputs.js';
import { indexPending, reindex, type WriteSummary, writeTracks } from './catalogue-index.js';
import { type CatalogueTrack, lookupRows } from './catalogue-lookup.js';
import { catalogueIndexBytes, refreshPopularity, vacuumCatalogue } from './catalogue-maintenance.js';

export type { WriteSummary } from './catalogue-index.js';
export type { CatalogueTrack } from './catalogue-lookup.js';

/** Something that hands out an EntityManager: the ORM (a fork per call) or an EntityManager itself. */
export type EmSource = Orm | EntityManager;

/**
 * The track catalogue, one entry for its three jobs: looking typed tracklists up (catalogue-lookup.ts), writing tracks
 * with their lookup index (catalogue-index.ts), and upkeep (catalogue-maintenance.ts). Each call gets its own fork.
 */
export class CatalogueService {
  constructor(private readonly source: EmSource) {}

  private em(): EntityManager {
    return ('em' in this.source ? this.source.em.fork() : this.source.fork()) as EntityManager;
  }

  /**
   * Candidates for each typed row of a tracklist, in row order: up to 5 catalogue tracks each, best first; an empty
   * list means "No options found". Rows are `{ artist, title }` (see parseLookupRows); a row missing either is a 400
   * 'Missing: Empty fields'. One database round trip for the whole list.
   */
  async lookup(input: unknown): Promise<CatalogueTrack[][]> {
    return lookupRows(this.em(), parseLookupRows(input));
  }

  /** The same for rows already read. */
  async lookupRows(rows: readonly LookupRow[]): Promise<CatalogueTrack[][]> {
    return lookupRows(this.em(), rows);
  }

  /**
   * Creates or updates tracks by external id (source + id) in one transaction, indexing what changed. A second write
   * of the same track updates it (or changes nothing), never duplicates it.
   */
  async write(inputs: readonly CatalogueInput[], em?: EntityManager): Promise<WriteSummary> {
    const run = (tx: EntityManager) => writeTracks(tx, inputs);
    return em ? em.transactional(run) : this.em().transactional(run);
  }

  /** See catalogue-index.ts. */
  async indexPending(batch?: number): Promise<number> {
    return indexPending(() => this.em(), batch);
  }

  async reindex(): Promise<number> {
    return reindex(() => this.em());
  }

  /** See catalogue-maintenance.ts. */
  async vacuum(): Promise<void> {
    return vacuumCatalogue(this.em());
  }

  async indexBytes(): Promise<{ tables: Record<string, number>; total: number }> {
    return catalogueIndexBytes(this.em());
  }

  async refreshPopularity(): Promise<void> {
    return refreshPopularity(this.em());
  }
}
