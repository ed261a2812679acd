/**
 * How much of an answer still streaming is finished: everything up to its last blank line outside
 * a code fence, or 0 when there is none yet. What is finished goes to the scrollback, so the live
 * region redrawn at each frame holds one paragraph (or one code block), however long the answer.
 * The line being written (after the last newline) is never finished.
 */
export function finishedLength(answer: string): number {
  let inFence = false;
  let finished = 0;
  let offset = 0;
  const lines = answer.split("\n");
  for (let at = 0; at < lines.length - 1; at++) {
    const line = lines[at] ?? "";
    offset += line.length + 1;
    if (/^\s*```/.test(line)) inFence = !inFence;
    else if (!inFence && line.trim() === "") finished = offset;
  }
  return finished;
}
