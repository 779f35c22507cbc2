/** Crop zoom 1 to 3 in steps of 0.05 (docs/rules.md#limits). */
export const CROP_ZOOM = { min: 1, max: 3, step: 0.05 } as const;

/** The size of the square every cropped image is sent as (the server stores the same). */
export const CROPPED_SIZE = 400;

export interface CropArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Cuts the chosen square out of the image and returns it as a 400x400 JPEG, in the browser. */
export async function cropToSquareJpeg(source: string, area: CropArea, size = CROPPED_SIZE): Promise<Blob> {
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
