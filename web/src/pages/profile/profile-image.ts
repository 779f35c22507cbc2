import { PROFILE_IMAGE } from '@mixcrate/api/validation';

/** SPEC §5: how long a profile image error stays on screen. */
export const IMAGE_ERROR_MS = 6000;

/** SPEC §5: the browser's first check of a chosen profile image (the server checks the content again). */
export function profileImageProblem(file: { name: string; size: number }): string | null {
  const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
  if (!(PROFILE_IMAGE.extensions as readonly string[]).includes(extension)) return PROFILE_IMAGE.wrongFormat;
  if (file.size > PROFILE_IMAGE.maxBytes) return PROFILE_IMAGE.tooLarge;
  return null;
}

/** SPEC §5: non-word characters are stripped from the file name (the extension's dot stays). */
export function cleanFileName(name: string): string {
  const dot = name.lastIndexOf('.');
  const base = (dot > 0 ? name.slice(0, dot) : name).replace(/\W/g, '');
  const extension =
    dot > 0
      ? name
          .slice(dot + 1)
          .replace(/\W/g, '')
          .toLowerCase()
      : 'jpg';
  return `${base || 'profile'}.${extension}`;
}

export interface CropArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Cuts the chosen square out of the image and returns it as a 400x400 JPEG, in the browser. */
export async function cropToSquareJpeg(source: string, area: CropArea, size = 400): Promise<Blob> {
  const image = new Image();
  image.src = source;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = size;
  canvas.height = size;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('This browser cannot crop images.');
  context.drawImage(image, area.x, area.y, area.width, area.height, 0, 0, size, size);
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('The image could not be cropped.'))), 'image/jpeg', 0.9);
  });
}
