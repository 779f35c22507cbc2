import { authHeaders } from '../lib/auth-headers';

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
 * Create-mix with the MP3 already on the server (the finished tus upload's address): the draft's id (docs/upload.md#calls). Aborting
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
    headers: authHeaders(),
    body: form,
    signal,
  });
  const body = (await response.json().catch(() => null)) as { _id?: string; message?: string } | null;
  if (!response.ok || !body?._id) throw new CreateMixError(body?.message ?? 'The mix could not be created. Please try again.');
  return body._id;
}
