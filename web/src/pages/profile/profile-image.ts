/** SPEC §5: how long a profile image error stays on screen. */
export const IMAGE_ERROR_MS = 6000;

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
