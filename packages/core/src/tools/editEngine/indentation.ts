import { type IndentMapping, levelScaling, uniformOffset } from "./indentMapping.js";
import { isBlank, leadingWhitespace } from "./lineIndex.js";

/** A line of old_string and the file line it was matched to. */
export interface LinePair {
  old: string;
  file: string;
}

/**
 * How the file's block is indented compared with old_string: the same; every line moved by one
 * offset (or written in another style, tabs for spaces); indentation levels of another width
 * (a 2-space quote of a 4-space file, or the reverse), possibly a level deeper or shallower as a whole;
 * or differently from line to line, which no single rule explains.
 */
export type IndentRelation = "same" | "shifted" | "scaled" | "irregular";

/** How new_string must be placed so it sits at the indentation the file really has. */
export interface IndentAdjustment {
  relation: IndentRelation;
  /**
   * old_string's first line was copied without its indentation (as when copying from mid-line),
   * so the file's indentation of that line stays and the replacement starts after it.
   */
  keepFirstIndent: boolean;
  reindent(newText: string): string;
}

/** Tab widths tried, most common first, when one side indents with tabs and the other with spaces. */
const tabWidths = [4, 8, 2] as const;

/**
 * Compares the indentation of matched lines (the first pair is the block's first line) and looks
 * for one rule that turns every old indentation into the file's: an offset, tried first at every
 * tab width as the simpler explanation, then a scaling of indentation levels. new_string is then
 * re-indented by that rule, in the file's style (tabs or spaces). With no such rule the relation
 * is irregular and new_string is left as written: the callers do not apply such a block, since
 * new_string could only be placed with indentation that mixes old_string's and the file's.
 */
export function analyzeIndentation(pairs: readonly LinePair[]): IndentAdjustment {
  const first = pairs[0];
  const keepFirstIndent =
    first !== undefined &&
    !isBlank(first.old) &&
    leadingWhitespace(first.old) === "" &&
    leadingWhitespace(first.file) !== "";
  const compared = pairs
    .filter((pair, index) => !isBlank(pair.old) && !(index === 0 && keepFirstIndent))
    .map((pair) => ({ old: leadingWhitespace(pair.old), file: leadingWhitespace(pair.file) }));
  const asWritten = (relation: IndentRelation) => ({
    relation,
    keepFirstIndent,
    reindent: (text: string) => text,
  });
  if (compared.every((pair) => pair.old === pair.file)) return asWritten("same");

  const found = consistentMapping(compared);
  if (found === undefined) return asWritten("irregular");
  const { mapping, tabWidth } = found;
  const known = new Map(compared.map((pair) => [pair.old, pair.file]));
  const fileUsesTabs = compared.some((pair) => pair.file.includes("\t"));
  // An indentation old_string showed keeps exactly what the file has there; others are mapped.
  const indentFor = (indent: string) =>
    known.get(indent) ?? render(mapping.map(width(indent, tabWidth)), fileUsesTabs, tabWidth);
  return {
    relation: mapping.kind,
    keepFirstIndent,
    reindent: (text) => reindentLines(text, indentFor, keepFirstIndent),
  };
}

/** The simplest rule explaining every compared line, and the tab width it was found at. */
function consistentMapping(
  compared: readonly { old: string; file: string }[],
): { mapping: IndentMapping; tabWidth: number } | undefined {
  const usesTabs = compared.some((pair) => pair.old.includes("\t") || pair.file.includes("\t"));
  const widthsTried = usesTabs ? tabWidths : [tabWidths[0]];
  for (const finder of [uniformOffset, levelScaling]) {
    for (const tabWidth of widthsTried) {
      const widths = compared.map((pair) => ({
        old: width(pair.old, tabWidth),
        file: width(pair.file, tabWidth),
      }));
      const mapping = finder(widths);
      if (mapping !== undefined) return { mapping, tabWidth };
    }
  }
  return undefined;
}

function reindentLines(text: string, indentFor: (indent: string) => string, skipFirst: boolean): string {
  return text
    .split("\n")
    .map((line, index) => {
      if (isBlank(line) || (index === 0 && skipFirst)) return line;
      const indent = leadingWhitespace(line);
      return indentFor(indent) + line.slice(indent.length);
    })
    .join("\n");
}

/** Column reached after the indentation, tabs advancing to the next tab stop. */
function width(indent: string, tabWidth: number): number {
  let column = 0;
  for (const character of indent) {
    column = character === "\t" ? (Math.floor(column / tabWidth) + 1) * tabWidth : column + 1;
  }
  return column;
}

function render(columns: number, useTabs: boolean, tabWidth: number): string {
  if (!useTabs) return " ".repeat(columns);
  return "\t".repeat(Math.floor(columns / tabWidth)) + " ".repeat(columns % tabWidth);
}
