import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as SquareCrop from '../src/components/square-crop';
import { launchBrowser } from './support/browser';
import { WEB_DIR } from './support/web-build';

/**
 * cropToSquareJpeg draws on a canvas, which jsdom does not have: it runs here in Chromium. The source is 800 x 400 in
 * four colours that meet at (500, 120), off its centre, so only the right area, scaled to fill the square, gives back
 * four 200 x 200 quarters of one colour each (the whole image, a shifted area or swapped x and y would not).
 */
const SOURCE = { width: 800, height: 400, splitX: 500, splitY: 120 };
const AREA: SquareCrop.CropArea = { x: 460, y: 80, width: 80, height: 80 };
const COLOURS = {
  topLeft: [220, 40, 40],
  topRight: [40, 60, 220],
  bottomLeft: [40, 200, 80],
  bottomRight: [240, 220, 40],
} as const;
type Rgb = readonly [number, number, number];
/** JPEG at quality 0.9 moves a flat colour by a few levels. */
const TOLERANCE = 24;

interface Cropped {
  type: string;
  firstBytes: number[];
  width: number;
  height: number;
  /** The colour at the centre of each 100 x 100 cell of the output, row by row. */
  cells: Rgb[][];
}

/** src/components/square-crop.ts as one script that sets `window.squareCrop`, for a page without the app. */
async function bundleSquareCrop(): Promise<string> {
  const result = await build({
    configFile: false,
    root: WEB_DIR,
    logLevel: 'silent',
    build: {
      write: false,
      minify: false,
      lib: { entry: join(WEB_DIR, 'src/components/square-crop.ts'), formats: ['iife'], name: 'squareCrop' },
    },
  });
  if (!Array.isArray(result) && !('output' in result)) throw new Error('Vite started watching instead of building');
  for (const output of Array.isArray(result) ? result : [result]) {
    for (const file of output.output) if (file.type === 'chunk') return file.code;
  }
  throw new Error('the square-crop bundle has no script');
}

/** Draws the four-colour source as a PNG, crops it with cropToSquareJpeg as the cropper does, and decodes the result. */
function cropInBrowser(page: Page): Promise<Cropped> {
  return page.evaluate(
    async ({ source, area, colours }) => {
      const canvas = document.createElement('canvas');
      canvas.width = source.width;
      canvas.height = source.height;
      const context = canvas.getContext('2d');
      if (!context) throw new Error('no 2d canvas');
      const paint = ([r, g, b]: readonly number[], x: number, y: number, width: number, height: number) => {
        context.fillStyle = `rgb(${r} ${g} ${b})`;
        context.fillRect(x, y, width, height);
      };
      const { splitX, splitY } = source;
      paint(colours.topLeft, 0, 0, splitX, splitY);
      paint(colours.topRight, splitX, 0, source.width - splitX, splitY);
      paint(colours.bottomLeft, 0, splitY, splitX, source.height - splitY);
      paint(colours.bottomRight, splitX, splitY, source.width - splitX, source.height - splitY);
      const png = await new Promise<Blob>((resolve, reject) =>
        canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('no PNG'))), 'image/png'),
      );

      const { cropToSquareJpeg } = (window as unknown as { squareCrop: typeof SquareCrop }).squareCrop;
      const jpeg = await cropToSquareJpeg(URL.createObjectURL(png), area);

      const bitmap = await createImageBitmap(jpeg);
      const reader = document.createElement('canvas');
      reader.width = bitmap.width;
      reader.height = bitmap.height;
      const readContext = reader.getContext('2d');
      if (!readContext) throw new Error('no 2d canvas');
      readContext.drawImage(bitmap, 0, 0);
      const cells: [number, number, number][][] = [];
      for (let row = 0; row < 4; row++) {
        cells.push([]);
        for (let column = 0; column < 4; column++) {
          const [r, g, b] = readContext.getImageData(column * 100 + 50, row * 100 + 50, 1, 1).data;
          cells[row].push([r, g, b]);
        }
      }
      return {
        type: jpeg.type,
        firstBytes: [...new Uint8Array(await jpeg.slice(0, 3).arrayBuffer())],
        width: bitmap.width,
        height: bitmap.height,
        cells,
      };
    },
    { source: SOURCE, area: AREA, colours: COLOURS },
  );
}

const near = (actual: Rgb, expected: Rgb) => actual.every((level, index) => Math.abs(level - expected[index]) <= TOLERANCE);

let browser: Browser;
let script: string;

beforeAll(async () => {
  [browser, script] = await Promise.all([launchBrowser(), bundleSquareCrop()]);
});
afterAll(async () => {
  await browser?.close();
});

describe('profile image crop (docs/profiles.md#profile-image: cropped square, 400 x 400 JPEG)', () => {
  it('gives back a 400 x 400 JPEG of exactly the chosen area, scaled to fill it', async () => {
    const page = await browser.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    try {
      await page.addScriptTag({ content: script });
      const cropped = await cropInBrowser(page);

      expect(cropped.type).toBe('image/jpeg');
      expect(cropped.firstBytes).toEqual([0xff, 0xd8, 0xff]);
      expect([cropped.width, cropped.height]).toEqual([400, 400]);
      const expected = (row: number, column: number): Rgb =>
        row < 2 ? (column < 2 ? COLOURS.topLeft : COLOURS.topRight) : column < 2 ? COLOURS.bottomLeft : COLOURS.bottomRight;
      const wrong = cropped.cells.flatMap((cells, row) =>
        cells.flatMap((rgb, column) => (near(rgb, expected(row, column)) ? [] : [{ row, column, rgb, expected: expected(row, column) }])),
      );
      expect(wrong).toEqual([]);
      expect(pageErrors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
