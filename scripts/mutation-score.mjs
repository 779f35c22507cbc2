// Prints the mutation score of every file in Stryker's JSON reports, and in total: the reports named on the command
// line, or reports/mutation/mutation.json (npm run test:mutation's) and reports/mutation/changed/mutation.json (the
// changed files' job), a file in both counted by the later. The score is Stryker's: killed and timed-out mutants over every
// mutant that compiled (survived and uncovered ones count against it; compile errors and ignored ones do not count).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// `--markdown`: the table as the README shows it.
const markdown = process.argv.includes('--markdown');
const named = process.argv.slice(2).filter((arg) => arg !== '--markdown');
const reports =
  named.length > 0
    ? named
    : [join(root, 'reports/mutation/mutation.json'), join(root, 'reports/mutation/changed/mutation.json')].filter((path) =>
        existsSync(path),
      );
if (reports.length === 0) {
  process.stderr.write('no mutation report: run `npm run test:mutation` first\n');
  process.exit(1);
}

/** Every file's result; a later report's replaces an earlier one's. */
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

if (markdown) {
  for (const row of rows) {
    process.stdout.write(
      `| \`${row.file}\` | ${score(row.detected, row.valid)} | ${row.detected} | ${row.survived} | ${row.noCoverage} |\n`,
    );
  }
  const survived = rows.reduce((sum, row) => sum + row.survived, 0);
  const noCoverage = rows.reduce((sum, row) => sum + row.noCoverage, 0);
  process.stdout.write(`| **total** | **${score(total.detected, total.valid)}** | ${total.detected} | ${survived} | ${noCoverage} |\n`);
  process.exit(0);
}

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
