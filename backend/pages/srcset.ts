// An <img>'s srcset and size attributes, read as the HTML standard reads them.

/** srcset candidates read per attribute. */
const SRCSET_MAX = 64;

export interface SrcsetCandidate {
  url: string;
  /** The `w` descriptor. */
  width?: number;
  /** The `x` descriptor. */
  density?: number;
}

const isSpace = (code: number) => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d;

/** A srcset's candidates, as the HTML standard splits them (a comma may be part of an address). */
export function parseSrcset(value: string): SrcsetCandidate[] {
  const found: SrcsetCandidate[] = [];
  const n = value.length;
  let i = 0;
  while (i < n && found.length < SRCSET_MAX) {
    while (i < n && (isSpace(value.charCodeAt(i)) || value[i] === ',')) i++;
    const start = i;
    while (i < n && !isSpace(value.charCodeAt(i))) i++;
    let url = value.slice(start, i);
    let descriptors = '';
    if (url.endsWith(',')) {
      url = url.replace(/,+$/, '');
    } else {
      const from = i;
      for (let depth = 0; i < n; i++) {
        const char = value[i];
        if (char === '(') depth++;
        else if (char === ')') depth = Math.max(0, depth - 1);
        else if (char === ',' && depth === 0) break;
      }
      descriptors = value.slice(from, i);
      i++;
    }
    if (url === '') continue;
    const candidate: SrcsetCandidate = { url };
    for (const descriptor of descriptors.trim().split(/\s+/)) {
      const width = /^(\d{1,6})w$/.exec(descriptor);
      if (width) candidate.width = Number(width[1]);
      const density = /^(\d{0,3}(?:\.\d+)?)x$/.exec(descriptor);
      if (density && Number(density[1]) > 0) candidate.density = Number(density[1]);
    }
    found.push(candidate);
  }
  return found;
}

/** Widest first: by `w` when any candidate has one, else by density (1x when none is given). */
export function widestFirst(candidates: SrcsetCandidate[]): SrcsetCandidate[] {
  const byWidth = candidates.some((c) => c.width !== undefined);
  const size = (c: SrcsetCandidate) => (byWidth ? (c.width ?? 0) : (c.density ?? 1));
  // sort is stable: among equals the page's own order stays.
  return [...candidates].sort((a, b) => size(b) - size(a));
}

/** A width or height attribute when it is a plain number ("300", "300px"), else undefined. */
export function declaredSize(value: string | undefined): number | undefined {
  const match = value === undefined ? null : /^\s*(\d{1,6})(?:\.\d+)?(?:px)?\s*$/i.exec(value);
  return match ? Number(match[1]) : undefined;
}
