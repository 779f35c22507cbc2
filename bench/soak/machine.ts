import { readFileSync } from 'node:fs';
import pg from 'pg';

/** What the machine, the API process and its database are doing while the load runs. */

export interface Sample {
  atSeconds: number;
  rss: number;
  load: number;
  /** Share of the last 10 s some task waited for a CPU (Linux pressure stall information), in %. */
  cpuPressure: number;
}

/** /proc/pressure/cpu's "some avg10": how starved of CPU the machine is (NaN where the kernel does not say). */
export function cpuPressure(): number {
  try {
    return Number(/avg10=([\d.]+)/.exec(readFileSync('/proc/pressure/cpu', 'utf8'))?.[1]);
  } catch {
    return Number.NaN;
  }
}

/**
 * When requests pile up (more than a few seconds of traffic in flight), what the server's database connections are
 * doing: a stall in PostgreSQL (locks, I/O) or a pool held by something that never lets go, told apart from slow CPU.
 */
export async function databaseSnapshot(databaseUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{
      state: string;
      wait: string;
      count: number;
      oldest_xact: number;
      oldest_query: number;
      query: string;
    }>(
      `select coalesce(state, '?') as state, coalesce(wait_event_type || ':' || wait_event, '-') as wait, count(*)::int as count,
              round(extract(epoch from max(now() - xact_start))::numeric, 1)::float8 as oldest_xact,
              round(extract(epoch from max(now() - query_start))::numeric, 1)::float8 as oldest_query,
              left(regexp_replace(min(query), '[[:space:]]+', ' ', 'g'), 160) as query
         from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()
        group by 1, 2 order by 3 desc`,
    );
    return rows
      .map(
        (row) =>
          `${row.count} ${row.state} (${row.wait}; oldest transaction ${row.oldest_xact ?? '-'} s, query ${row.oldest_query ?? '-'} s: ${row.query})`,
      )
      .join('; ');
  } finally {
    await client.end();
  }
}

/** CPU time (user + system) of a process so far, in seconds. */
const TICKS = 100;
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
}
