import { readToken } from '../lib/storage';

/** SPEC §5 cover checks, made before the crop (the server checks the content again). */
export const COVER_RULE = {
  extensions: ['jpg', 'jpeg', 'gif', 'png', 'webp'],
  maxBytes: 5_242_880,
  wrongFormat: 'Wrong format! Use .jpg, .png, .gif, or .webp',
  tooLarge: 'File too large (max. 5MB)',
  invalid: 'Invalid file',
} as const;

export function coverProblem(file: { name: string; size: number }): string | null {
  const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
  if (!(COVER_RULE.extensions as readonly string[]).includes(extension)) return COVER_RULE.wrongFormat;
  if (file.size >= COVER_RULE.maxBytes) return COVER_RULE.tooLarge;
  return null;
}

/** SPEC §5: the items an upload needs, named in the SPEC's order and joined with ' + ' when missing. */
export function missingItems(items: { cover: boolean; title: boolean; mp3: boolean; genre: boolean }): string | null {
  const missing = [!items.cover && 'Cover Image', !items.title && 'Title', !items.mp3 && 'MP3 audio file', !items.genre && 'Genre'].filter(
    (item): item is string => typeof item === 'string',
  );
  return missing.length > 0 ? missing.join(' + ') : null;
}

/** The cropped cover is kept as a data: URL (it survives a reload); the page shows and sends it as a Blob. */
export function dataUrlToBlob(dataUrl: string): Blob {
  const [head = '', base64 = ''] = dataUrl.split(',');
  const type = /^data:([^;]+)/.exec(head)?.[1] ?? 'image/jpeg';
  const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
  return new Blob([bytes], { type });
}

export function blobToDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('The image could not be read.'));
    reader.readAsDataURL(blob);
  });
}

export class CreateMixError extends Error {}

/**
 * SPEC §7 create-mix with the MP3 already on the server (the finished tus upload's address): the draft's id. Aborting
 * the signal before the draft is written leaves nothing on the server (the API discards a request whose client left).
 */
export async function createDraftMix(
  fields: { cover: Blob; title: string; genre: string; mp3Url: string },
  signal: AbortSignal,
): Promise<string> {
  const form = new FormData();
  form.append('title', fields.title.trim());
  form.append('genre', fields.genre);
  form.append('mp3', fields.mp3Url);
  form.append('cover', fields.cover, 'cover.jpg');
  const response = await fetch('/api/mix/create-mix', {
    method: 'POST',
    headers: { 'x-auth-token': readToken() ?? '' },
    body: form,
    signal,
  });
  const body = (await response.json().catch(() => null)) as { _id?: string; message?: string } | null;
  if (!response.ok || !body?._id) throw new CreateMixError(body?.message ?? 'The mix could not be created. Please try again.');
  return body._id;
}
