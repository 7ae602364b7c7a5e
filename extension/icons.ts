// The extension's icons, drawn at build time from the app's mark (the favicon in
// frontend/index.html) with sharp, so no binary is kept in the repository.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';

export const ICON_SIZES = [16, 32, 48, 128] as const;

const MARK = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="16" fill="#c8102e"/><path d="M16 7a6 6 0 0 0-2.2 11.6L12.5 26h1.9l1.4-6.1A6 6 0 1 0 16 7z" fill="#fff"/></svg>`;

/** Paths as the manifest names them, by size. */
export const iconPaths = Object.fromEntries(ICON_SIZES.map((size) => [size, `icon/${size}.png`]));

export async function writeIcons(outDir: string): Promise<void> {
  await mkdir(path.join(outDir, 'icon'), { recursive: true });
  await Promise.all(
    ICON_SIZES.map(async (size) => {
      const png = await sharp(Buffer.from(MARK), { density: Math.ceil((72 * size) / 32) * 2 })
        .resize(size, size)
        .png()
        .toBuffer();
      await writeFile(path.join(outDir, `icon/${size}.png`), png);
    }),
  );
}
