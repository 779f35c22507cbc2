/**
 * `npm run catalogue:import -- FILE [--format csv|jsonl]`: imports catalogue tracks from JSON lines or CSV into the
 * database the server uses (DATABASE_URL, or the embedded one under DATA_DIR; stop the server first when it runs on
 * the embedded one). Streams the file; prints a progress line and a summary; a second import of the same file
 * updates, never duplicates. Refused rows are listed (line and reason) and the rest land; exits 1 only when the import
 * could not run.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import pino from 'pino';
import { ConfigError, loadConfig } from '../src/config.js';
import { migrate, openOrm } from '../src/db/orm.js';
import { CatalogueService } from '../src/modules/tracks/catalogue/catalogue.service.js';
import { formatOf, type ImportFormat, importCatalogue } from '../src/modules/tracks/catalogue/import.js';
import { prepareDatabase } from '../src/server.js';

const usage = 'usage: npm run catalogue:import -- FILE [--format csv|jsonl]';

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const formatAt = args.indexOf('--format');
  const forced = formatAt >= 0 ? args.splice(formatAt, 2)[1] : undefined;
  const [file] = args;
  if (!file) throw new Error(usage);
  // npm runs this in api/: a relative path means the directory the command was typed in.
  const path = resolve(process.env.INIT_CWD ?? process.cwd(), file);
  const format = (forced ?? formatOf(path)) as ImportFormat | null;
  if (format !== 'csv' && format !== 'jsonl')
    throw new Error(`cannot tell the format of ${file}: name it .csv or .jsonl, or pass --format\n${usage}`);
  const bytes = (await stat(path)).size;
  const config = loadConfig({ ...process.env, DEMO: '0' });
  const log = pino({ level: config.LOG_LEVEL });
  const database = await prepareDatabase(config, log);
  const orm = await openOrm(database.url, log);
  try {
    await migrate(orm);
    const service = new CatalogueService(orm);
    const stream = createReadStream(path);
    let lastPrint = 0;
    const summary = await importCatalogue(service, stream, format, {
      onProgress: (progress) => {
        const now = performance.now();
        if (now - lastPrint < 1000) return;
        lastPrint = now;
        const done = bytes > 0 ? ` ${((100 * stream.bytesRead) / bytes).toFixed(0)}%` : '';
        process.stderr.write(
          `\r${progress.rows.toLocaleString('en')} rows${done}: ${progress.created.toLocaleString('en')} created, ${progress.updated.toLocaleString('en')} updated, ${progress.unchanged.toLocaleString('en')} unchanged, ${progress.refused.toLocaleString('en')} refused   `,
        );
      },
    });
    process.stderr.write('\r\x1b[K');
    await service.vacuum();
    const rate = summary.rows / Math.max(summary.seconds, 0.001);
    process.stdout.write(
      `${path}: ${summary.rows.toLocaleString('en')} rows in ${summary.seconds.toFixed(1)} s (${Math.round(rate).toLocaleString('en')} rows/s)\n` +
        `  created ${summary.created.toLocaleString('en')}, updated ${summary.updated.toLocaleString('en')}, unchanged ${summary.unchanged.toLocaleString('en')}, refused ${summary.refused.toLocaleString('en')}\n`,
    );
    for (const refused of summary.refusedRows.slice(0, 50)) process.stdout.write(`  line ${refused.line}: ${refused.reason}\n`);
    if (summary.refused > 50) process.stdout.write(`  ... and ${(summary.refused - 50).toLocaleString('en')} more refused\n`);
    return 0;
  } finally {
    await orm.close();
    await database.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(
      `catalogue:import failed: ${error instanceof ConfigError ? error.message : error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  },
);
