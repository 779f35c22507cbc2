import { MockedProvider } from '@apollo/client/testing/react';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect, useRef } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cropToSquareJpeg } from '../../components/square-crop';
import type { ProfileFieldsFragment } from '../../gql/graphql';
import { ProfileEditor } from './ProfileEditor';

// jsdom decodes no images and has no canvas: the cropper reports a crop at once and the canvas step (which
// e2e/profile-image-crop.e2e.test.ts checks in Chromium) hands back a stand-in JPEG. What is checked here is that the
// editor crops the chosen image to the area the cropper reported, and sends what the crop gave back.
const { CROP_PIXELS, CROPPED } = vi.hoisted(() => ({
  CROP_PIXELS: { x: 40, y: 10, width: 300, height: 300 },
  CROPPED: new Blob(['cropped jpeg'], { type: 'image/jpeg' }),
}));
vi.mock('react-easy-crop', () => ({
  default: function FakeCropper({ onCropComplete }: { onCropComplete(area: unknown, pixels: unknown): void }) {
    const reported = useRef(false);
    useEffect(() => {
      if (reported.current) return;
      reported.current = true;
      onCropComplete({ x: 10, y: 2.5, width: 75, height: 75 }, CROP_PIXELS);
    });
    return <div data-testid="cropper" />;
  },
}));
vi.mock('../../components/square-crop', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../components/square-crop')>()),
  cropToSquareJpeg: vi.fn(async () => CROPPED),
}));

const ANA: ProfileFieldsFragment = {
  id: 'u1',
  userName: 'ana',
  displayName: 'Ana',
  userType: 'DJ',
  userTypeLabel: 'DJ',
  bio: 'Deep house',
  verifiedNames: [],
  imageUrl: null,
  createdAt: '2024-05-24T10:00:00.000Z',
  distanceKm: null,
  isFollowing: null,
  followerCount: 0,
  followingCount: 0,
};

function renderEditor(onDone = vi.fn()) {
  localStorage.setItem('token', 'token-1');
  render(
    <MockedProvider>
      <ProfileEditor user={ANA} onDone={onDone} />
    </MockedProvider>,
  );
  return { onDone, user: userEvent.setup({ delay: null, applyAccept: false }) };
}

const bio = () => screen.getByLabelText('Bio');
const counter = () => screen.getByText(/\d+ \/ 180/);
const save = () => screen.getByRole('button', { name: 'Save' });
const imageInput = () => screen.getByLabelText('Choose image');
const file = (name: string, bytes = 10, type = 'image/png') => new File([new Uint8Array(bytes)], name, { type });

beforeEach(() => {
  vi.mocked(cropToSquareJpeg).mockClear();
  URL.createObjectURL = vi.fn((object: Blob) => (object === CROPPED ? 'blob:cropped' : 'blob:chosen'));
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('profile editor: bio', () => {
  it('counts the bio against 180, green up to 180 and red above, and disables Save above 180', () => {
    renderEditor();
    expect(counter().textContent).toBe('10 / 180');

    fireEvent.change(bio(), { target: { value: 'x'.repeat(180) } });
    expect(counter().textContent).toBe('180 / 180');
    expect(counter().className).toBe('counter');
    expect(save()).toHaveProperty('disabled', false);

    fireEvent.change(bio(), { target: { value: 'x'.repeat(181) } });
    expect(counter().textContent).toBe('181 / 180');
    expect(counter().className).toBe('counterOver');
    expect(bio().getAttribute('aria-invalid')).toBe('true');
    expect(save()).toHaveProperty('disabled', true);

    fireEvent.change(bio(), { target: { value: 'x'.repeat(179) } });
    expect(counter().className).toBe('counter');
    expect(save()).toHaveProperty('disabled', false);
  });

  it('offers the twelve user types with the current one chosen', () => {
    renderEditor();
    const type = screen.getByLabelText('User type') as HTMLSelectElement;
    expect(type.value).toBe('dj');
    expect([...type.options].map((option) => option.textContent)).toEqual([
      'Listener',
      'DJ',
      'DJ Creator',
      'Creator',
      'Artist',
      'Engineer',
      'Agent',
      'Retailer',
      'Label',
      'Promoter',
      'Distributor',
      'Other',
    ]);
  });
});

describe('profile editor: image rules', () => {
  it("refuses a format other than jpg, jpeg, gif or png with 'Wrong format! Try .jpg .png or .gif'", async () => {
    const { user } = renderEditor();
    await user.upload(imageInput(), file('me.webp', 10, 'image/webp'));
    expect(screen.getByRole('alert').textContent).toBe('Wrong format! Try .jpg .png or .gif');
    expect(screen.queryByTestId('cropper')).toBeNull();
  });

  it("refuses a file over 2,000,000 bytes with 'File too large (max. 2MB)' and accepts exactly 2,000,000", async () => {
    const { user } = renderEditor();
    await user.upload(imageInput(), file('me.png', 2_000_001));
    expect(screen.getByRole('alert').textContent).toBe('File too large (max. 2MB)');

    await user.upload(imageInput(), file('me.png', 2_000_000));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByTestId('cropper')).toBeTruthy();
  });

  it('clears the image error after 6 s', () => {
    vi.useFakeTimers();
    renderEditor();
    // fireEvent, not userEvent: Testing Library's async helpers wait on real timers, which are frozen here.
    fireEvent.change(imageInput(), { target: { files: [file('me.bmp')] } });
    expect(screen.getByRole('alert').textContent).toBe('Wrong format! Try .jpg .png or .gif');

    act(() => vi.advanceTimersByTime(5_900));
    expect(screen.queryByRole('alert')).not.toBeNull();
    act(() => vi.advanceTimersByTime(100));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('offers a zoom from 1 to 3 in steps of 0.05 while cropping, and Cancel drops the chosen image', async () => {
    const { user } = renderEditor();
    await user.upload(imageInput(), file('me.jpg'));
    const zoom = screen.getByLabelText('Zoom');
    expect([zoom.getAttribute('min'), zoom.getAttribute('max'), zoom.getAttribute('step')]).toEqual(['1', '3', '0.05']);
    expect(save()).toHaveProperty('disabled', true);

    await user.click(within(screen.getByRole('region', { name: 'Crop your image' })).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByTestId('cropper')).toBeNull();
    expect(screen.queryByAltText('Your profile')).toBeNull();
  });

  it('crops the chosen image to the area picked, then sends that JPEG named without non-word characters, and the fields', async () => {
    const fetchMock = vi.fn(async () => new Response('{}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const { user, onDone } = renderEditor();

    await user.upload(imageInput(), file('my photo (1)!.PNG'));
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect((await screen.findByAltText('Your profile')).getAttribute('src')).toBe('blob:cropped');
    expect(cropToSquareJpeg).toHaveBeenCalledExactlyOnceWith('blob:chosen', CROP_PIXELS);

    await user.clear(screen.getByLabelText('Display name'));
    await user.type(screen.getByLabelText('Display name'), '  Ana B ');
    await user.selectOptions(screen.getByLabelText('User type'), 'dj-creator');
    await user.click(save());

    await vi.waitFor(() => expect(onDone).toHaveBeenCalled());
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/user/update-user');
    expect(init.method).toBe('PATCH');
    expect(init.headers).toEqual({ 'x-auth-token': 'token-1' });
    const form = init.body as FormData;
    expect(form.get('display_name')).toBe('Ana B');
    expect(form.get('user_type')).toBe('dj-creator');
    expect(form.get('bio')).toBe('Deep house');
    const sent = form.get('profile_image') as File;
    expect(sent.name).toBe('myphoto1.jpg');
    expect(sent.type).toBe('image/jpeg');
    expect(await sent.text()).toBe('cropped jpeg');
  });

  it("shows the server's message when saving fails, and stays open", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ message: 'Invalid file' }), { status: 400 })),
    );
    const { user, onDone } = renderEditor();
    await user.click(save());
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid file');
    expect(onDone).not.toHaveBeenCalled();
    expect(save()).toHaveProperty('disabled', false);
  });
});
