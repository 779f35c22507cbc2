import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

/** A file this long holds more than one job: split it along its seams (generated code aside). */
const MAX_LINES = 400;
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CHECKED = ['api/src', 'web/src'];
// The demo world's MP3 encoder and recognition's MP3 decoder are compiled C (lame/build.sh, mpg123/build.sh), not
// lines anybody edits.
const GENERATED = ['web/src/gql', 'api/src/demo-world/lame/lame.wasm', 'api/src/modules/recognition/mpg123/mpg123.wasm'];

async function* filesUnder(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (GENERATED.includes(relative(ROOT, path))) continue;
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (entry.isFile()) yield path;
  }
}

const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

test(`no file in ${CHECKED.join(' or ')} (generated code aside) is over ${MAX_LINES} lines`, async () => {
  const tooLong: string[] = [];
  let checked = 0;
  for (const dir of CHECKED) {
    for await (const path of filesUnder(join(ROOT, dir))) {
      checked += 1;
      const lines = lineCount(await readFile(path, 'utf8'));
      if (lines > MAX_LINES) tooLong.push(`${relative(ROOT, path)}: ${lines} lines`);
    }
  }
  expect(checked).toBeGreaterThan(100);
  expect(tooLong).toEqual([]);
});
