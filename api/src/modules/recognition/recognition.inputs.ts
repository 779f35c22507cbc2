import { z } from 'zod';
import { text } from '../../shared/inputs.js';

/** A finished resumable (tus) upload: its id or its URL, as the upload flow's `mp3` field names it. */
export const uploadIdInput = text(500).pipe(z.string().min(1, 'Missing: the upload id'));
