// Prints the mutation score of every file in Stryker's JSON reports, and in total: the reports named on the command
// line, or every reports/mutation/**/mutation.json (npm run test:mutation writes reports/mutation/mutation.json; a run
// over part of the files may write its own folder). The score is Stryker's: killed and timed-out mutants over every
// mutant that compiled (survived and uncovered ones count against it; compile errors and ignored ones do not count).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function reportsUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name.startsWith('.') ? [] : reportsUnder(path);
    return entry.name === 'mutation.json' ? [path] : [];
  });
}

const reports = process.argv.length > 2 ? process.argv.slice(2) : reportsUnder(join(root, 'reports', 'mutation'));
if (reports.length === 0) {
  process.stderr.write('no mutation report: run `npm run test:mutation` first\n');
  process.exit(1);
}

/** The newest result of every file: a later report (by its run's end) replaces an earlier one's. */
const files = new Map();
for (const report of reports) {
  const json = JSON.parse(readFileSync(report, 'utf8'));
  for (const [file, result] of Object.entries(json.files)) files.set(file, { report, mutants: result.mutants });
}

const COUNTED = ['Killed', 'Timeout', 'Survived', 'NoCoverage'];
const rows = [...files.entries()]
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([file, { mutants }]) => {
    const count = (status) => mutants.filter((mutant) => mutant.status === status).length;
    const detected = count('Killed') + count('Timeout');
    const valid = COUNTED.reduce((sum, status) => sum + count(status), 0);
    return { file, detected, survived: count('Survived'), noCoverage: count('NoCoverage'), valid, compileErrors: count('CompileError') };
  });
const score = (detected, valid) => (valid === 0 ? 'n/a' : `${((100 * detected) / valid).toFixed(1)}%`);
const total = rows.reduce((sum, row) => ({ detected: sum.detected + row.detected, valid: sum.valid + row.valid }), {
  detected: 0,
  valid: 0,
});

const width = Math.max(...rows.map((row) => row.file.length), 5);
const line = (file, scoreText, detected, survived, noCoverage, compileErrors) =>
  `${file.padEnd(width)}  ${String(scoreText).padStart(6)}  ${String(detected).padStart(8)}  ${String(survived).padStart(8)}  ${String(noCoverage).padStart(11)}  ${String(compileErrors).padStart(13)}`;
process.stdout.write(`${line('file', 'score', 'detected', 'survived', 'no coverage', 'compile error')}\n`);
for (const row of rows) {
  process.stdout.write(
    `${line(row.file, score(row.detected, row.valid), row.detected, row.survived, row.noCoverage, row.compileErrors)}\n`,
  );
}
process.stdout.write(`${line('total', score(total.detected, total.valid), total.detected, total.valid - total.detected, '', '')}\n`);
process.stdout.write(`(from ${reports.map((report) => relative(root, report)).join(', ')})\n`);
