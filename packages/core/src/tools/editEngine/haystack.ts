import { LineIndex } from "./lineIndex.js";

/**
 * The file text a strategy searches: the normalised text itself, or a view of it in which some
 * characters were rewritten (unicode normalisation). Offsets found in a view are translated
 * back, and a match may only start and end where the view and the file agree.
 */
export interface Haystack {
  readonly index: LineIndex;
  /** Offset in the normalised file text of an offset in this view. */
  toBase(offset: number): number;
  /** False inside a rewritten stretch, where no match may start or end. */
  isBoundary(offset: number): boolean;
}

/** A stretch of the view whose length differs from the file text it was rewritten from. */
export interface ResizedStretch {
  viewStart: number;
  viewEnd: number;
  baseStart: number;
  baseEnd: number;
}

export function plainHaystack(index: LineIndex): Haystack {
  return { index, toBase: (offset) => offset, isBoundary: () => true };
}

/**
 * A view whose text matches the file offset for offset except in the resized stretches (sorted),
 * so only those are recorded, however large the file.
 */
export function resizedHaystack(viewText: string, stretches: readonly ResizedStretch[]): Haystack {
  const stretchAt = (offset: number): ResizedStretch | undefined => {
    let low = 0;
    let high = stretches.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((stretches[middle]?.viewStart ?? offset + 1) <= offset) low = middle + 1;
      else high = middle;
    }
    return stretches[low - 1];
  };
  return {
    index: new LineIndex(viewText),
    toBase: (offset) => {
      const stretch = stretchAt(offset);
      if (stretch === undefined) return offset;
      if (offset < stretch.viewEnd) return stretch.baseStart;
      return stretch.baseEnd + (offset - stretch.viewEnd);
    },
    isBoundary: (offset) => {
      const stretch = stretchAt(offset);
      return stretch === undefined || offset === stretch.viewStart || offset >= stretch.viewEnd;
    },
  };
}
