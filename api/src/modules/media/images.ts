import sharp from 'sharp';
import { InvalidInputError } from '../../shared/errors.js';

export const IMAGE_SIZE = 400;
// Refuses decompression bombs: a small file that declares huge dimensions.
const MAX_INPUT_PIXELS = 50_000_000;

export interface ImageRule {
  formats: readonly string[];
  wrongFormat: string;
  invalid: string;
}

export const PROFILE_IMAGE_RULE: ImageRule = {
  formats: ['jpeg', 'png', 'gif'],
  wrongFormat: 'Wrong format! Try .jpg .png or .gif',
  invalid: 'Invalid file',
};

/** Checks an image by its content (never its name) and returns it as a square 400x400 JPEG. */
export async function toSquareJpeg(input: Buffer, rule: ImageRule): Promise<Buffer> {
  let format: string | undefined;
  try {
    format = (await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS }).metadata()).format;
  } catch {
    throw new InvalidInputError(rule.wrongFormat);
  }
  if (!format || !rule.formats.includes(format)) throw new InvalidInputError(rule.wrongFormat);
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
