/** How long a profile image error stays on screen (docs/profiles.md#profile-image). */
export const IMAGE_ERROR_MS = 6000;

/** Non-word characters are stripped from the file name (the extension's dot stays) (docs/profiles.md#profile-image). */
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
