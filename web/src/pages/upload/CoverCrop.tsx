import { useState } from 'react';
import Cropper from 'react-easy-crop';
import buttons from '../../components/Button.module.css';
import { type CropArea, cropToSquareJpeg } from '../profile/profile-image';
import styles from './UploadPage.module.css';

/** SPEC §9: crop zoom 1 to 3 in steps of 0.05. */
export const COVER_ZOOM = { min: 1, max: 3, step: 0.05 } as const;

interface CoverCropProps {
  /** An object URL of the chosen image. */
  source: string;
  onCancel(): void;
  onDone(jpeg: Blob): void;
  onInvalid(): void;
}

/** SPEC §2 step 1's cover crop: square, zoom slider, Cancel and Done; Done gives the 400x400 JPEG. */
export function CoverCrop({ source, onCancel, onDone, onInvalid }: CoverCropProps) {
  const [crop, setCrop] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState<number>(COVER_ZOOM.min);
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
    <section className={styles.cropper} aria-label="Crop your cover image">
      <div className={styles.cropArea}>
        <Cropper
          image={source}
          crop={crop}
          zoom={zoom}
          minZoom={COVER_ZOOM.min}
          maxZoom={COVER_ZOOM.max}
          zoomSpeed={COVER_ZOOM.step * 4}
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
          min={COVER_ZOOM.min}
          max={COVER_ZOOM.max}
          step={COVER_ZOOM.step}
          value={zoom}
          onChange={(event) => setZoom(Number(event.target.value))}
        />
      </label>
      <div className={styles.cropActions}>
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
