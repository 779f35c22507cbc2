import { useState } from 'react';
import Cropper from 'react-easy-crop';
import buttons from './Button.module.css';
import styles from './SquareCropper.module.css';
import { CROP_ZOOM, type CropArea, cropToSquareJpeg } from './square-crop';

interface SquareCropperProps {
  /** An object URL of the chosen image. */
  source: string;
  /** The region's name ('Crop your cover image'). */
  label: string;
  onCancel(): void;
  /** The cropped square as a 400x400 JPEG. */
  onDone(jpeg: Blob): void;
  /** The image could not be cropped (it did not decode). */
  onInvalid(): void;
}

/**
 * The square crop in docs/profiles.md#profile-page, for the upload's cover and the profile image alike: the image under a square frame, a zoom
 * slider from 1 to 3 in steps of 0.05, Cancel and Done. Another image starts afresh (centred, unzoomed).
 */
export function SquareCropper(props: SquareCropperProps) {
  return <Cropping key={props.source} {...props} />;
}

function Cropping({ source, label, onCancel, onDone, onInvalid }: SquareCropperProps) {
  const [crop, setCrop] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState<number>(CROP_ZOOM.min);
  const [area, setArea] = useState<CropArea | null>(null);
  const [working, setWorking] = useState(false);

  async function finish() {
    if (!area) return;
    setWorking(true);
    try {
      onDone(await cropToSquareJpeg(source, area));
    } catch {
      onInvalid();
    } finally {
      setWorking(false);
    }
  }

  return (
    <section className={styles.cropper} aria-label={label}>
      <div className={styles.cropArea}>
        <Cropper
          image={source}
          crop={crop}
          zoom={zoom}
          minZoom={CROP_ZOOM.min}
          maxZoom={CROP_ZOOM.max}
          zoomSpeed={CROP_ZOOM.step * 4}
          aspect={1}
          onCropChange={setCrop}
          onZoomChange={setZoom}
          onCropComplete={(_, pixels) => setArea(pixels)}
        />
      </div>
      <label className={styles.zoom}>
        Zoom
        <input
          type="range"
          min={CROP_ZOOM.min}
          max={CROP_ZOOM.max}
          step={CROP_ZOOM.step}
          value={zoom}
          onChange={(event) => setZoom(Number(event.target.value))}
        />
      </label>
      <div className={styles.actions}>
        <button type="button" className={buttons.secondary} onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className={buttons.primary} disabled={!area || working} onClick={() => void finish()}>
          Done
        </button>
      </div>
    </section>
  );
}
