/** Indentation widths, in columns, of a line of old_string and of the file line it matched. */
export interface WidthPair {
  old: number;
  file: number;
}

/**
 * A single rule that turns every indentation width of old_string into the file's: one offset for
 * every line ("shifted"), or indentation levels of one width made levels of another ("scaled").
 */
export interface IndentMapping {
  kind: "shifted" | "scaled";
  map(width: number): number;
}

/**
 * Old indentation units tried for a scaled mapping, the most common first. Several units can
 * explain the same lines (0, 4, 8 fits a unit of 4 and of 2); the first one decides how a line of
 * new_string that old_string never showed is placed, so the usual units come first.
 */
const oldUnits = [4, 2, 8, 3, 1] as const;

/** Every line moved by the same number of columns. */
export function uniformOffset(pairs: readonly WidthPair[]): IndentMapping | undefined {
  const offsets = new Set(pairs.map((pair) => pair.file - pair.old));
  if (offsets.size !== 1) return undefined;
  const offset = [...offsets][0] ?? 0;
  return { kind: "shifted", map: (width) => Math.max(0, width + offset) };
}

/**
 * Indentation levels of `unit` columns in old_string are levels of another width in the file
 * (2 → 4, 4 → 2, 4 → 8), counted from the block's shallowest line, which may itself sit at
 * another depth in the file. Columns past the last whole level (alignment such as the space
 * before a JSDoc `*`) are kept as they are, since they are not indentation levels. The mapping
 * must reproduce every matched line exactly; a rule that only fits most lines would place
 * new_string with mixed indentation.
 */
export function levelScaling(pairs: readonly WidthPair[]): IndentMapping | undefined {
  const oldBase = smallest(pairs.map((pair) => pair.old));
  const fileBase = smallest(pairs.map((pair) => pair.file));
  const relative = pairs.map((pair) => ({ old: pair.old - oldBase, file: pair.file - fileBase }));
  for (const unit of oldUnits) {
    const fileUnit = fileUnitFor(relative, unit);
    // Levels of the same width in both are no scaling: the lines differ by an offset at most.
    if (fileUnit === undefined || fileUnit === unit) continue;
    return {
      kind: "scaled",
      map: (width) => {
        const { level, rest } = levelsOf(width - oldBase, unit);
        return Math.max(0, fileBase + level * fileUnit + rest);
      },
    };
  }
  return undefined;
}

/**
 * The file's level width that makes every relative old width land on its file width when old
 * levels are `unit` wide; undefined when none does, or when no line is a whole level deep (then
 * nothing was scaled and only an offset could explain the lines).
 */
function fileUnitFor(relative: readonly WidthPair[], unit: number): number | undefined {
  let fileUnit: number | undefined;
  for (const pair of relative) {
    const { level, rest } = levelsOf(pair.old, unit);
    if (level === 0) {
      if (pair.file !== rest) return undefined;
      continue;
    }
    const candidate = (pair.file - rest) / level;
    if (!Number.isInteger(candidate) || candidate < 1) return undefined;
    if (fileUnit !== undefined && candidate !== fileUnit) return undefined;
    fileUnit = candidate;
  }
  return fileUnit;
}

/** Whole levels and the columns left over (0 to unit - 1); a width below the base has negative levels. */
function levelsOf(width: number, unit: number): { level: number; rest: number } {
  const level = Math.floor(width / unit);
  return { level, rest: width - level * unit };
}

/** Math.min without spreading, which overflows the call stack on a block of very many lines. */
function smallest(values: readonly number[]): number {
  return values.reduce((least, value) => Math.min(least, value), Number.POSITIVE_INFINITY);
}
