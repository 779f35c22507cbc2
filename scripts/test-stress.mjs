// `npm run test:stress`: the API suite while every core is kept busy by a CPU burner, as on a machine running other
// work beside the tests. A test that reads a clock where it should wait for an event, or a server that takes its own
// slowness for a client's, fails here first. The burners are worker threads of this process, so they stop with it
// whatever happens (a failure, Ctrl-C, a kill). Prints the wall time and the load average of each run.
//
//   npm run test:stress                       the whole API suite once
//   npm run test:stress -- --runs=2           twice in a row, stopping at the first failure
//   npm run test:stress -- test/feed.test.ts  any other argument goes to vitest
//
// The database and Redis are found as for `npm test` (TEST_DATABASE_URL, TEST_REDIS_URL, or an embedded PostgreSQL).
import { spawn } from 'node:child_process';
import { availableParallelism, constants, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const runsArgument = process.argv.slice(2).find((argument) => argument.startsWith('--runs='));
const runs = runsArgument ? Number(runsArgument.slice('--runs='.length)) : 1;
if (!Number.isInteger(runs) || runs < 1) {
  process.stderr.write(`--runs wants a whole number of at least 1, not ${runsArgument}\n`);
  process.exit(2);
}
const vitestArguments = process.argv.slice(2).filter((argument) => argument !== runsArgument);

// One spinning thread per core: with the suite's own work, every core has more to do than it can.
const burners = Array.from({ length: availableParallelism() }, () => new Worker('for (;;) {}', { eval: true }));
const stopBurners = () => Promise.all(burners.map((burner) => burner.terminate()));

let suite = null;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    suite?.kill(signal);
    void stopBurners().then(() => process.exit(128 + constants.signals[signal]));
  });
}

const oneMinuteLoad = () => loadavg()[0];
const format = (value) => value.toFixed(2);

/** One run of the API suite; answers its exit code, wall time and the load average seen during it. */
function runSuite() {
  return new Promise((resolve) => {
    const started = performance.now();
    const samples = [oneMinuteLoad()];
    const sampler = setInterval(() => samples.push(oneMinuteLoad()), 15_000);
    suite = spawn(process.execPath, [vitest, 'run', ...vitestArguments], { cwd: join(root, 'api'), stdio: 'inherit' });
    const finish = (code) => {
      clearInterval(sampler);
      samples.push(oneMinuteLoad());
      suite = null;
      resolve({
        code,
        seconds: (performance.now() - started) / 1000,
        load: { start: samples[0], end: samples.at(-1), mean: samples.reduce((sum, sample) => sum + sample, 0) / samples.length },
      });
    };
    suite.once('exit', (code, signal) => finish(code ?? (signal ? 1 : 0)));
    suite.once('error', (error) => {
      process.stderr.write(`could not start vitest: ${error.message}\n`);
      finish(1);
    });
  });
}

const results = [];
try {
  process.stdout.write(`test:stress: ${burners.length} CPU burners on ${availableParallelism()} cores, ${runs} run(s)\n`);
  for (let run = 1; run <= runs; run++) {
    const result = await runSuite();
    results.push(result);
    const { start, end, mean } = result.load;
    process.stdout.write(
      `\ntest:stress run ${run}/${runs}: ${result.code === 0 ? 'passed' : `FAILED (exit ${result.code})`} in ${result.seconds.toFixed(0)} s; ` +
        `load average (1 min) ${format(start)} at start, ${format(end)} at end, ${format(mean)} on average\n`,
    );
    if (result.code !== 0) break;
  }
} finally {
  await stopBurners();
}
const failed = results.find((result) => result.code !== 0);
process.exit(failed ? failed.code || 1 : 0);
