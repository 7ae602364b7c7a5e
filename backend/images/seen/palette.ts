import type { ImagePaletteEntry } from '../../../db/schema.ts';
import type { Sharp } from 'sharp';
import { distance, type Lab, oklabOf } from './oklab.ts';

// A picture's palette: its few main colours with the share of the picture each covers. The
// picture (flattened on white, as it shows on the page) is shrunk to at most SAMPLE_SIDE² pixels,
// its pixels counted in a 15-bit colour histogram, the histogram's colours grouped by a weighted
// k-means in OKLab, groups that look alike merged, and the largest MAX_COLOURS kept. A share is the
// fraction of all pixels in that group, so the shares kept sum to at most 1.

/** `hex`: `#rrggbb`, the mean colour of a group; `share`: of the picture's pixels, 0–1, rounded to 3 decimals. */
export type PaletteEntry = ImagePaletteEntry;

const SAMPLE_SIDE = 64;
const MAX_COLOURS = 5;
/** Groups sought before merging (more than kept, so a small accent is not swallowed by a big neighbour). */
const GROUPS = 8;
const ITERATIONS = 8;
/** Groups closer than this in OKLab look like one colour. */
const SAME_COLOUR = 0.07;
/** Groups smaller than this share are noise (anti-aliased edges, JPEG ringing). */
const MIN_SHARE = 0.01;

interface Bin {
  count: number;
  r: number;
  g: number;
  b: number;
  lab: Lab;
}

interface Group {
  count: number;
  r: number;
  g: number;
  b: number;
  centre: Lab;
}

export async function paletteOf(image: Sharp): Promise<PaletteEntry[]> {
  const { data, info } = await image.flatten({ background: '#ffffff' }).resize({ width: SAMPLE_SIDE, height: SAMPLE_SIDE, fit: 'inside' }).raw().toBuffer({ resolveWithObject: true });
  const bins = histogramOf(data, info.channels);
  const total = info.width * info.height;
  const groups = mergeAlike(kMeans(bins));
  return groups
    .filter((group) => group.count / total >= MIN_SHARE)
    .sort((x, y) => y.count - x.count)
    .slice(0, MAX_COLOURS)
    .map((group) => ({ hex: hexOf(group.r / group.count, group.g / group.count, group.b / group.count), share: Math.floor((group.count / total) * 1000) / 1000 }));
}

function histogramOf(data: Buffer, channels: number): Bin[] {
  const bins = new Map<number, Bin>();
  for (let i = 0; i + 2 < data.length; i += channels) {
    const r = data[i] ?? 0;
    const g = data[i + 1] ?? 0;
    const b = data[i + 2] ?? 0;
    const key = ((r >> 3) << 10) | ((g >> 3) << 5) | (b >> 3);
    const bin = bins.get(key);
    if (bin) {
      bin.count += 1;
      bin.r += r;
      bin.g += g;
      bin.b += b;
    } else bins.set(key, { count: 1, r, g, b, lab: { l: 0, a: 0, b: 0 } });
  }
  const list = [...bins.values()];
  for (const bin of list) bin.lab = oklabOf(Math.round(bin.r / bin.count), Math.round(bin.g / bin.count), Math.round(bin.b / bin.count));
  return list;
}

/** Weighted k-means over the histogram's colours, seeded with the heaviest colour and then each farthest from those chosen. */
function kMeans(bins: Bin[]): Group[] {
  if (bins.length === 0) return [];
  const heaviest = bins.reduce((x, y) => (y.count > x.count ? y : x));
  const centres: Lab[] = [heaviest.lab];
  while (centres.length < Math.min(GROUPS, bins.length)) {
    let farthest = heaviest;
    let far = -1;
    for (const bin of bins) {
      // Weighted by how much of the picture it is, so one stray pixel is not a seed.
      const d = Math.min(...centres.map((centre) => distance(bin.lab, centre))) * Math.sqrt(bin.count);
      if (d > far) {
        far = d;
        farthest = bin;
      }
    }
    if (far <= 0) break;
    centres.push(farthest.lab);
  }
  let groups: Group[] = [];
  for (let iteration = 0; iteration < ITERATIONS; iteration++) {
    groups = centres.map((centre) => ({ count: 0, r: 0, g: 0, b: 0, centre }));
    const sums = centres.map(() => ({ l: 0, a: 0, b: 0 }));
    for (const bin of bins) {
      let nearest = 0;
      for (let c = 1; c < centres.length; c++) if (distance(bin.lab, centres[c] as Lab) < distance(bin.lab, centres[nearest] as Lab)) nearest = c;
      const group = groups[nearest] as Group;
      const sum = sums[nearest] as Lab;
      group.count += bin.count;
      group.r += bin.r;
      group.g += bin.g;
      group.b += bin.b;
      sum.l += bin.lab.l * bin.count;
      sum.a += bin.lab.a * bin.count;
      sum.b += bin.lab.b * bin.count;
    }
    for (let c = 0; c < centres.length; c++) {
      const group = groups[c] as Group;
      const sum = sums[c] as Lab;
      if (group.count) centres[c] = { l: sum.l / group.count, a: sum.a / group.count, b: sum.b / group.count };
    }
  }
  return groups.map((group, c) => ({ ...group, centre: centres[c] ?? group.centre })).filter((group) => group.count > 0);
}

/** Groups that look like one colour become one (the larger's centre moves to their weighted mean). */
function mergeAlike(groups: Group[]): Group[] {
  const merged = [...groups].sort((x, y) => y.count - x.count);
  for (let i = 0; i < merged.length; i++) {
    for (let j = merged.length - 1; j > i; j--) {
      const big = merged[i] as Group;
      const small = merged[j] as Group;
      if (distance(big.centre, small.centre) >= SAME_COLOUR) continue;
      const count = big.count + small.count;
      big.centre = {
        l: (big.centre.l * big.count + small.centre.l * small.count) / count,
        a: (big.centre.a * big.count + small.centre.a * small.count) / count,
        b: (big.centre.b * big.count + small.centre.b * small.count) / count,
      };
      big.count = count;
      big.r += small.r;
      big.g += small.g;
      big.b += small.b;
      merged.splice(j, 1);
    }
  }
  return merged;
}

function hexOf(r: number, g: number, b: number): string {
  return `#${[r, g, b].map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;
}
