import { imageProblem, PROFILE_IMAGE_RULE } from '@mixcrate/api/rules';
import { describe, expect, it } from 'vitest';
import { cleanFileName } from './profile-image';

const profileImageProblem = (file: { name: string; size: number }) => imageProblem(PROFILE_IMAGE_RULE, file);

describe('profile image rules (docs/profiles.md#profile-image)', () => {
  it('accepts jpg, jpeg, gif and png up to 2,000,000 bytes', () => {
    for (const name of ['me.jpg', 'me.JPEG', 'me.gif', 'me.png']) expect(profileImageProblem({ name, size: 2_000_000 })).toBeNull();
  });

  it('refuses other formats and larger files with the documented messages', () => {
    expect(profileImageProblem({ name: 'me.webp', size: 10 })).toBe('Wrong format! Try .jpg .png or .gif');
    expect(profileImageProblem({ name: 'me', size: 10 })).toBe('Wrong format! Try .jpg .png or .gif');
    expect(profileImageProblem({ name: 'me.png', size: 2_000_001 })).toBe('File too large (max. 2MB)');
  });

  it('strips non-word characters from the file name', () => {
    expect(cleanFileName('my photo (1)!.PNG')).toBe('myphoto1.png');
    expect(cleanFileName('ç€.jpg')).toBe('profile.jpg');
  });
});
