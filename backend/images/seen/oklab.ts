// sRGB (0–255 per channel) to OKLab (Björn Ottosson, 2020): a space where distances follow how
// different colours look, used to group a picture's pixels into a palette and to name colours.

export interface Lab {
  l: number;
  a: number;
  b: number;
}

/** sRGB's transfer curve undone, for each of the 256 channel values. */
const LINEAR = Float64Array.from({ length: 256 }, (_, v) => {
  const c = v / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
});

export function oklabOf(r: number, g: number, b: number): Lab {
  const lr = LINEAR[r] ?? 0;
  const lg = LINEAR[g] ?? 0;
  const lb = LINEAR[b] ?? 0;
  const l = Math.cbrt(0.4122214708 * lr + 0.5363325363 * lg + 0.0514459929 * lb);
  const m = Math.cbrt(0.2119034982 * lr + 0.6806995451 * lg + 0.1073969566 * lb);
  const s = Math.cbrt(0.0883024619 * lr + 0.2817188376 * lg + 0.6299787005 * lb);
  return {
    l: 0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s,
    a: 1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s,
    b: 0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s,
  };
}

export function oklabOfHex(hex: string): Lab {
  const n = Number.parseInt(hex.slice(1), 16);
  return oklabOf((n >> 16) & 255, (n >> 8) & 255, n & 255);
}

export function distance(x: Lab, y: Lab): number {
  return Math.hypot(x.l - y.l, x.a - y.a, x.b - y.b);
}

export function chromaOf(colour: Lab): number {
  return Math.hypot(colour.a, colour.b);
}
