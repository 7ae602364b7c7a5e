// The home order: a permutation of positions [0, n) fixed by a seed, computed position by position
// so that a page costs O(page) whatever n is. A balanced Feistel network is a bijection on
// [0, 2^(2h)) for any round function; positions that land at or beyond n are fed through again
// (cycle-walking) until they fall inside, which keeps it a bijection on [0, n). 2^(2h) < 4n, so a
// position takes fewer than 4 walks on average. Not cryptographic, nor meant to be: it only has to
// look random and differ per seed.

const ROUNDS = 4;

/** A 32-bit integer hash with good avalanche (the "lowbias32" finaliser). */
function mix32(value: number): number {
  let x = value >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

/** The position → position map of the permutation of [0, n) that `seed` picks. */
export function permutation(n: number, seed: number): (position: number) => number {
  if (!Number.isSafeInteger(n) || n < 1 || n > 2 ** 32) throw new RangeError(`permutation size out of range: ${n}`);
  const bits = Math.max(2, Math.ceil(Math.log2(n)));
  const half = Math.ceil(bits / 2);
  const mask = 2 ** half - 1;
  const keys = Array.from({ length: ROUNDS }, (_, round) => mix32(seed ^ mix32(round + 0x9e3779b9)));
  const feistel = (position: number): number => {
    let left = Math.floor(position / 2 ** half);
    let right = position & mask;
    for (const key of keys) [left, right] = [right, (left ^ mix32(right ^ key)) & mask];
    return left * 2 ** half + right;
  };
  return (position) => {
    let x = feistel(position);
    while (x >= n) x = feistel(x);
    return x;
  };
}
