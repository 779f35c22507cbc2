// The recognition bench's table: per condition, recall, precision, false detections per hour, start error, the speed
// and pitch shift each found play was reported at against the truth, speed and memory; and how confident true and
// false detections were.

import { type Scored, type ScoredDetection, score, type Truth } from '../api/test/support/recognition-test-set/generate.js';

const MB = 1024 * 1024;

export interface Row {
  name: string;
  hours: number;
  scored: Scored;
  speed: number | null;
  memory: number | null;
}

export function total(runs: { truth: Truth[]; detections: ScoredDetection[] }[]): Scored {
  const sum: Scored = {
    plays: 0,
    found: 0,
    detections: 0,
    correct: 0,
    falseDetections: 0,
    startErrors: [],
    midFadeErrors: [],
    speedErrors: [],
    pitchErrors: [],
    trueConfidences: [],
    falseConfidences: [],
  };
  for (const run of runs) {
    const s = score(run.truth, run.detections);
    sum.plays += s.plays;
    sum.found += s.found;
    sum.detections += s.detections;
    sum.correct += s.correct;
    sum.falseDetections += s.falseDetections;
    for (const key of ['startErrors', 'midFadeErrors', 'speedErrors', 'pitchErrors', 'trueConfidences', 'falseConfidences'] as const)
      sum[key].push(...s[key]);
  }
  return sum;
}

export const quantile = (values: number[], q: number) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
};
export const median = (values: number[]) => quantile(values, 0.5);
export const percent = (part: number, whole: number) => (whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)}%`);

export function printTable(rows: Row[]) {
  const header = [
    'condition',
    'mix h',
    'plays',
    'recall',
    'precision',
    'false/h',
    'start err',
    'p90',
    'mid-fade err',
    'speed err',
    'pitch err',
    'speed',
    'query mem',
  ];
  const errors = (values: number[], digits: number, unit: string) =>
    values.length === 0 ? '-' : `${median(values).toFixed(digits)}${unit}`;
  const lines = rows.map((row) => [
    row.name,
    row.hours.toFixed(2),
    String(row.scored.plays),
    percent(row.scored.found, row.scored.plays),
    percent(row.scored.correct, row.scored.detections),
    (row.scored.falseDetections / row.hours).toFixed(1),
    errors(row.scored.startErrors, 1, ' s'),
    row.scored.startErrors.length === 0 ? '-' : `${quantile(row.scored.startErrors, 0.9).toFixed(1)} s`,
    errors(row.scored.midFadeErrors, 1, ' s'),
    errors(
      row.scored.speedErrors.map((e) => 100 * e),
      2,
      '%',
    ),
    errors(row.scored.pitchErrors, 2, ' st'),
    row.speed === null ? '-' : `${Math.round(row.speed)}x`,
    row.memory === null ? '-' : `${Math.round(row.memory / MB)} MB`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] as string).length)));
  const format = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join('  ');
  console.log(format(header));
  for (const line of lines) console.log(format(line));
}

/** How confident the true and the false detections of our rows were: the lowest, deciles, median. */
export function printConfidences(rows: Row[]) {
  const truths = rows.flatMap((row) => row.scored.trueConfidences);
  const falses = rows.flatMap((row) => row.scored.falseConfidences);
  const hours = rows.reduce((n, row) => n + row.hours, 0);
  const describe = (values: number[]) =>
    values.length === 0
      ? 'none'
      : `${values.length}: min ${quantile(values, 0).toFixed(3)}, p1 ${quantile(values, 0.01).toFixed(3)}, p10 ${quantile(values, 0.1).toFixed(3)}, median ${median(values).toFixed(3)}, max ${quantile(values, 1).toFixed(3)}`;
  console.log(`Confidence of true detections   ${describe(truths)}`);
  console.log(
    `Confidence of false detections  ${describe(falses)} (${(falses.length / hours).toFixed(2)} per hour over ${hours.toFixed(1)} h)`,
  );
  for (const threshold of [0.5, 0.7, 0.8, 0.9]) {
    const kept = truths.filter((c) => c >= threshold).length;
    const wrong = falses.filter((c) => c >= threshold).length;
    console.log(
      `  at confidence >= ${threshold}: recall ${percent(
        kept,
        rows.reduce((n, row) => n + row.scored.plays, 0),
      )}, ${(wrong / hours).toFixed(2)} false per hour`,
    );
  }
}
