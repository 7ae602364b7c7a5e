import sharp from 'sharp';
import { THEME_COLOR } from './app-manifest.ts';

/** The logo's pin (frontend/components/Icons.tsx, PinLogoIcon), on a 32 × 32 grid centred at 16, 16. */
const PIN_PATH = 'M16 7a6 6 0 0 0-2.2 11.6L12.5 26h1.9l1.4-6.1A6 6 0 1 0 16 7z';

/** The logo as it is: the white pin on a round accent badge, transparent around it. */
const ROUND = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="16" fill="${THEME_COLOR}"/><path d="${PIN_PATH}" fill="#fff"/></svg>`;

/**
 * For launchers that cut their own shape (maskable) and for iOS (which shows no transparency): the
 * accent fills the square, and the pin keeps inside the central circle of 80 % every mask leaves.
 */
const FULL_BLEED = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${THEME_COLOR}"/><path d="${PIN_PATH}" fill="#fff" transform="translate(16 16.5) scale(0.85) translate(-16 -16.5)"/></svg>`;

/** One icon as a PNG of `size` pixels square. */
export function drawIcon(size: number, purpose: 'any' | 'maskable' | 'apple'): Promise<Buffer> {
  const svg = purpose === 'any' ? ROUND : FULL_BLEED;
  return sharp(Buffer.from(svg), { density: (72 * size) / 32 })
    .resize(size, size)
    .png()
    .toBuffer();
}
