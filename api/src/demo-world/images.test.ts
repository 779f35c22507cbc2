import { expect, test } from 'vitest';
import { FOLDERS, objectKey } from '../storage/storage.js';
import { renderImages } from './loader.js';
import { planWorld } from './plan.js';

test("the mixes' covers are rendered first; the avatars and the references' covers only once the first screen plays", async () => {
  const world = planWorld();
  const written: string[] = [];
  let firstScreenPlays: () => void = () => undefined;
  const later = new Promise<void>((resolve) => {
    firstScreenPlays = resolve;
  });
  const mixes = [0, 1, 2];
  const images = renderImages(world, mixes, async (key) => void written.push(key), later);
  await Promise.all(images.covers.values());
  // Time enough for any other image to have been rendered, had it not waited.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const coverKeys = mixes.map((index) => objectKey(FOLDERS.mixImages, world.mixes[index]?.cover ?? ''));
  expect([...written].sort()).toEqual([...coverKeys].sort());

  firstScreenPlays();
  await images.all;
  expect(written).toHaveLength(mixes.length + world.members.length + world.references.length);
});
