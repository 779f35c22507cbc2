import { createHash } from 'node:crypto';

/** The demo world is the same everywhere: this seed decides every name, place, reference track and mix. */
export const DEMO_SEED = 20_240_524;

const digest = (text: string) => createHash('sha256').update(`mixcrate-demo:${text}`).digest('hex');

/** A UUID (version 8, "custom") that is always the same for the same name: demo rows can be found again by it. */
export function stableUuid(name: string): string {
  const hex = digest(name);
  const variant = ((Number.parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A storage file name that is always the same for the same name (32 hex digits, as uploads get). */
export const stableFileName = (name: string, extension: string) => `${digest(name).slice(0, 32)}.${extension}`;
