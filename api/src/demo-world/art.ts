import sharp from 'sharp';
import { Random } from '../shared/random.js';
import { IMAGE_SIZE } from '../storage/images.js';

const escapeXml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
const hsl = (hue: number, saturation: number, lightness: number) => `hsl(${Math.round(hue) % 360}, ${saturation}%, ${lightness}%)`;

async function jpeg(svg: string): Promise<Buffer> {
  return sharp(Buffer.from(svg)).resize(IMAGE_SIZE, IMAGE_SIZE).jpeg({ quality: 82 }).toBuffer();
}

/** A mix cover: a gradient in the genre's colours with rings and bars, and the title. */
export function mixCover(seedName: string, hue: number, title: string): Promise<Buffer> {
  const random = new Random(seedName);
  const rings = Array.from({ length: random.int(3, 7) }, (_, ring) => {
    const radius = 40 + ring * random.between(22, 40);
    return `<circle cx="${random.int(60, 340)}" cy="${random.int(60, 260)}" r="${radius.toFixed(0)}" fill="none" stroke="${hsl(hue + ring * 18, 90, 70)}" stroke-opacity="${random.between(0.25, 0.7).toFixed(2)}" stroke-width="${random.int(2, 10)}"/>`;
  }).join('');
  const bars = Array.from({ length: 24 }, (_, bar) => {
    const height = random.between(10, 90);
    return `<rect x="${20 + bar * 15}" y="${330 - height}" width="9" height="${height.toFixed(0)}" rx="3" fill="#fff" fill-opacity="0.55"/>`;
  }).join('');
  const text = `<text x="24" y="376" font-family="DejaVu Sans, sans-serif" font-weight="bold" font-size="22" fill="#fff">${escapeXml(title.slice(0, 30))}</text>`;
  return jpeg(`<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="${hsl(hue, 80, 45)}"/><stop offset="1" stop-color="${hsl(hue + 70, 75, 18)}"/>
    </linearGradient></defs>
    <rect width="400" height="400" fill="url(#g)"/>${rings}${bars}${text}
  </svg>`);
}

/** A member's picture: a tinted disc pattern with their initials. */
export function avatar(seedName: string, name: string): Promise<Buffer> {
  const random = new Random(seedName);
  const hue = random.int(0, 359);
  const initials = name
    .split(/\s+/)
    .map((word) => word[0] ?? '')
    .join('')
    .slice(0, 2)
    .toUpperCase();
  const blobs = Array.from(
    { length: 5 },
    () =>
      `<circle cx="${random.int(0, 400)}" cy="${random.int(0, 400)}" r="${random.int(60, 160)}" fill="${hsl(hue + random.int(-40, 40), 70, random.int(35, 60))}" fill-opacity="0.6"/>`,
  ).join('');
  return jpeg(`<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400">
    <rect width="400" height="400" fill="${hsl(hue, 60, 25)}"/>${blobs}
    <text x="200" y="250" text-anchor="middle" font-family="DejaVu Sans, sans-serif" font-weight="bold" font-size="150" fill="#fff">${escapeXml(initials)}</text>
  </svg>`);
}

/** A release cover for a catalogue track: stripes at an angle. */
export function trackCover(seedName: string): Promise<Buffer> {
  const random = new Random(seedName);
  const hue = random.int(0, 359);
  const stripes = Array.from(
    { length: 9 },
    (_, stripe) =>
      `<rect x="${stripe * 50 - 50}" y="-100" width="${random.int(12, 40)}" height="600" fill="${hsl(hue + stripe * 11, 85, 55 + (stripe % 3) * 10)}" transform="rotate(${random.int(15, 40)} 200 200)"/>`,
  ).join('');
  return jpeg(`<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400">
    <rect width="400" height="400" fill="${hsl(hue + 180, 40, 15)}"/>${stripes}
  </svg>`);
}
