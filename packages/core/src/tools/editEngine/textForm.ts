const byteOrderMark = "\uFEFF";

/**
 * A file's text as matching sees it (no BOM, LF line endings) plus what is needed to write an
 * edit back into the original: its BOM, its dominant line ending, and where CRLFs were, so bytes
 * outside the replaced spans stay exactly as they were, mixed line endings included.
 */
export interface TextForm {
  original: string;
  /** Text without BOM, every CRLF turned into LF. */
  normalized: string;
  bom: string;
  /** The line ending new text is written with. */
  eol: "\n" | "\r\n";
  /** Offsets in `normalized` of the LFs that were CRLF in the original, ascending. */
  crlfOffsets: number[];
}

export function textFormOf(original: string): TextForm {
  const bom = original.startsWith(byteOrderMark) ? byteOrderMark : "";
  const body = original.slice(bom.length);
  const parts: string[] = [];
  const crlfOffsets: number[] = [];
  let lfCount = 0;
  let from = 0;
  let removed = 0;
  for (let newline = body.indexOf("\n"); newline !== -1; newline = body.indexOf("\n", newline + 1)) {
    if (newline > 0 && body[newline - 1] === "\r") {
      parts.push(body.slice(from, newline - 1));
      from = newline;
      removed++;
      crlfOffsets.push(newline - removed);
    } else {
      lfCount++;
    }
  }
  parts.push(body.slice(from));
  const eol = crlfOffsets.length > lfCount ? "\r\n" : "\n";
  return { original, normalized: parts.join(""), bom, eol, crlfOffsets };
}

/** Offset in the original text of an offset in the normalised text. */
export function originalOffset(form: TextForm, normalizedOffset: number): number {
  return form.bom.length + normalizedOffset + countBelow(form.crlfOffsets, normalizedOffset);
}

/** Text from the model, in the form matching uses. */
export function toLf(text: string): string {
  return text.split("\r\n").join("\n");
}

export function withEol(text: string, eol: "\n" | "\r\n"): string {
  return eol === "\n" ? text : text.split("\n").join(eol);
}

/** How many of the ascending `values` are less than `limit`. */
function countBelow(values: readonly number[], limit: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((values[middle] ?? limit) < limit) low = middle + 1;
    else high = middle;
  }
  return low;
}
