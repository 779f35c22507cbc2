import { MockedProvider } from '@apollo/client/testing/react';
import { act, renderHook, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDraftMix } from './create-mix';
import { initialMixUploadState, mixUploadReducer, UPLOAD_CANCELLED } from './mix-upload-state';
import { type Mp3UploadHandle, uploadMp3 } from './mp3-upload';
import { EMPTY_FORM, readForm, readMixId } from './upload-state';
import { useMixUpload } from './use-mix-upload';

vi.mock('./mp3-upload', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./mp3-upload')>()),
  uploadMp3: vi.fn(),
  terminateUpload: vi.fn(async () => undefined),
}));
vi.mock('./create-mix', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./create-mix')>()),
  createDraftMix: vi.fn(),
}));

/** A File of `size` bytes without allocating them (the checks read only the size and type). */
function mp3Of(size: number): File {
  const file = new File(['ID3'], 'set.mp3', { type: 'audio/mpeg' });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}
const COVER = 'data:image/jpeg;base64,/9j/4AAQ';

describe('the upload state machine', () => {
  const start = initialMixUploadState({ form: EMPTY_FORM, pending: null, hasDraft: false });

  it('takes an MP3 of exactly 314,572,800 bytes and refuses one byte more, as the server does', () => {
    const taken = mixUploadReducer(start, { type: 'mp3Chosen', file: mp3Of(314_572_800) });
    expect([taken.mp3?.name, taken.mp3Error]).toEqual(['set.mp3', null]);
    const refused = mixUploadReducer(taken, { type: 'mp3Chosen', file: mp3Of(314_572_801) });
    expect([refused.mp3, refused.mp3Error]).toEqual([null, 'File too large (max. 300MB)']);
  });

  it('asks to start again when a draft or an unfinished upload is stored', () => {
    expect(start.askStartAgain).toBe(false);
    expect(initialMixUploadState({ form: EMPTY_FORM, pending: null, hasDraft: true }).askStartAgain).toBe(true);
    const pending = { url: '/api/uploads/a', fileName: 'set.mp3', size: 10, percent: 40 };
    expect(initialMixUploadState({ form: EMPTY_FORM, pending, hasDraft: false }).askStartAgain).toBe(true);
  });

  it('counts progress only while uploading, and a cancel clears the form with the documented words', () => {
    const uploading = mixUploadReducer(
      mixUploadReducer(start, { type: 'edited', change: { title: 'Sunday', genre: 'techno', cover: COVER } }),
      { type: 'uploadStarted', percent: 0 },
    );
    expect(mixUploadReducer(uploading, { type: 'uploadProgressed', percent: 42 }).phase).toEqual({ name: 'uploading', percent: 42 });
    const finishing = mixUploadReducer(uploading, { type: 'finishing' });
    expect(mixUploadReducer(finishing, { type: 'uploadProgressed', percent: 50 }).phase).toEqual({ name: 'finishing' });
    const cancelled = mixUploadReducer(finishing, { type: 'cancelled' });
    expect([cancelled.form, cancelled.phase, cancelled.alert]).toEqual([EMPTY_FORM, { name: 'idle' }, UPLOAD_CANCELLED]);
  });

  it('closes the cropper, keeping the cover error unless the image would not crop', () => {
    const cropping = mixUploadReducer(start, { type: 'coverChosen', url: 'blob:cover' });
    expect(mixUploadReducer(cropping, { type: 'cropClosed' })).toMatchObject({ chosenCover: null, coverError: null });
    expect(mixUploadReducer(cropping, { type: 'cropClosed', problem: 'Invalid file' })).toMatchObject({
      chosenCover: null,
      coverError: 'Invalid file',
    });
  });
});

describe('useMixUpload', () => {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <MockedProvider>
      <MemoryRouter initialEntries={['/upload']}>
        <Routes>
          <Route path="/upload" element={children} />
          <Route path="/upload/track-list" element={<p>Add Tracks</p>} />
        </Routes>
      </MemoryRouter>
    </MockedProvider>
  );

  beforeEach(() => {
    URL.createObjectURL = vi.fn(() => 'blob:cover');
    URL.revokeObjectURL = vi.fn();
  });
  afterEach(() => vi.mocked(uploadMp3).mockReset());

  it('names everything missing and sends nothing', async () => {
    const { result } = renderHook(useMixUpload, { wrapper });
    await act(() => result.current.submit());
    expect(result.current.alert).toBe('Cover Image + Title + MP3 audio file + Genre');
    expect(uploadMp3).not.toHaveBeenCalled();
  });

  it('sends the MP3, makes the draft from it and goes on to the tracklist with the draft remembered', async () => {
    vi.mocked(uploadMp3).mockImplementation((_file, onPercent) => {
      onPercent(100);
      return { done: Promise.resolve('/api/uploads/abc'), cancel: vi.fn(async () => undefined) };
    });
    vi.mocked(createDraftMix).mockResolvedValue('mix-1');
    const { result } = renderHook(useMixUpload, { wrapper });
    act(() => {
      result.current.edit({ title: 'Sunday', genre: 'techno', cover: COVER });
      result.current.chooseMp3(mp3Of(1000));
    });
    expect(readForm()).toEqual({ title: 'Sunday', genre: 'techno', cover: COVER });
    await act(() => result.current.submit());
    expect(await screen.findByText('Add Tracks')).toBeTruthy();
    expect(vi.mocked(createDraftMix).mock.calls[0]?.[0]).toMatchObject({ title: 'Sunday', genre: 'techno', mp3Url: '/api/uploads/abc' });
    expect(readMixId()).toBe('mix-1');
  });

  it('Cancel stops the upload, forgets the form and says so', async () => {
    const handle: Mp3UploadHandle = { done: new Promise(() => undefined), cancel: vi.fn(async () => undefined) };
    vi.mocked(uploadMp3).mockReturnValue(handle);
    const { result } = renderHook(useMixUpload, { wrapper });
    act(() => {
      result.current.edit({ title: 'Sunday', genre: 'techno', cover: COVER });
      result.current.chooseMp3(mp3Of(1000));
    });
    act(() => void result.current.submit());
    await waitFor(() => expect(result.current.busy).toBe(true));
    await act(() => result.current.cancel());
    expect(handle.cancel).toHaveBeenCalled();
    expect([result.current.busy, result.current.alert, result.current.form, result.current.mp3]).toEqual([
      false,
      UPLOAD_CANCELLED,
      EMPTY_FORM,
      null,
    ]);
  });
});
