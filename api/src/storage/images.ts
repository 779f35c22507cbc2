import sharp, { type Metadata } from 'sharp';
import { InvalidInputError } from '../shared/errors.js';
import type { ImageFileRule } from '../shared/rules.js';

export const IMAGE_SIZE = 400;
// Refuses decompression bombs: a small file that declares huge dimensions.
const MAX_INPUT_PIXELS = 50_000_000;

/** What the content check needs of an image rule (shared/rules.ts: COVER_RULE, PROFILE_IMAGE_RULE). */
export type ImageRule = Pick<ImageFileRule, 'formats' | 'wrongFormat' | 'invalid'>;

/**
 * Checks an image by its content (never its name) and returns it as a square 400x400 JPEG. Content that is no image,
 * or an image of another format, is the rule's wrong format; an image of a right format that does not decode
 * (truncated, corrupt, or a bomb declaring more pixels than we will decode) is the rule's invalid file.
 */
export async function toSquareJpeg(input: Buffer, rule: ImageRule): Promise<Buffer> {
  if (input.length === 0) throw new InvalidInputError(rule.invalid);
  let header: Metadata;
  try {
    // Reading the header decodes no pixels, so it is safe on any input, bombs included.
    header = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw new InvalidInputError(rule.wrongFormat);
  }
  if (!header.format || !rule.formats.includes(header.format)) throw new InvalidInputError(rule.wrongFormat);
  if ((header.width ?? 0) * (header.height ?? 0) > MAX_INPUT_PIXELS) throw new InvalidInputError(rule.invalid);
  try {
    return await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, animated: false })
      .rotate()
      .resize(IMAGE_SIZE, IMAGE_SIZE, { fit: 'cover', position: 'attention' })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 85, mozjpeg: true })
      .toBuffer();
  } catch {
    throw new InvalidInputError(rule.invalid);
  }
}
