// A Vitest reporter, beside the default one in the api and web configs: at the end of every run it prints the ten
// slowest test files with their times, so a file that starts to crawl is seen before it times out.

const SHOWN = 10;

/** Seconds with one decimal, right-aligned. */
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`.padStart(8);

export default class SlowestFiles {
  onInit(vitest) {
    this.vitest = vitest;
  }

  onTestRunEnd(testModules) {
    const files = testModules.map((module) => {
      const timing = module.diagnostic();
      // Importing the file (and what it imports) and its setup count too: a file is as slow as its whole stay.
      const load = timing.environmentSetupDuration + timing.prepareDuration + timing.collectDuration + timing.setupDuration;
      return { name: module.relativeModuleId, load, tests: timing.duration, total: load + timing.duration };
    });
    if (files.length === 0) return;
    const slowest = files.sort((a, b) => b.total - a.total).slice(0, SHOWN);
    const width = Math.max(...slowest.map((file) => file.name.length));
    const lines = slowest.map(
      (file) =>
        `  ${file.name.padEnd(width)} ${seconds(file.total)}  (tests and hooks ${seconds(file.tests).trim()}, loading ${seconds(file.load).trim()})`,
    );
    const write = (text) => (this.vitest?.logger ? this.vitest.logger.log(text) : process.stdout.write(`${text}\n`));
    write(`Slowest ${slowest.length} of ${files.length} test files:\n${lines.join('\n')}`);
  }
}
