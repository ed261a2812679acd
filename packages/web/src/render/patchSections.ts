const hunkHeader = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/;
/** The lines that open a file's section in git, svn and mercurial output. */
const sectionHeader = /^(?:diff --git |Index: |diff(?: -r \w+)+ )/;

/**
 * Cuts a unified diff holding several files (`git diff` output, or plain `---`/`+++` pairs)
 * into one piece of text per file. Hunk bodies are skipped by their line counts, so a removed
 * line that reads `-- x` (shown as `--- x`) is not taken for a file header.
 */
export function splitPatchSections(patch: string): string[] {
  const lines = patch.split("\n");
  const starts: number[] = [0];
  let oldLeft = 0;
  let newLeft = 0;
  // Whether the current section already has a `---` header or a hunk: a second one starts a new file.
  let hasFileHeader = false;
  let hasDiffHeader = false;
  let hasHunk = false;
  const startSection = (index: number) => {
    if (index > starts.at(-1)! && (hasFileHeader || hasHunk || hasDiffHeader)) starts.push(index);
    hasFileHeader = false;
    hasDiffHeader = false;
    hasHunk = false;
  };
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (oldLeft > 0 || newLeft > 0) {
      if (line.startsWith("-")) oldLeft--;
      else if (line.startsWith("+")) newLeft--;
      else if (!line.startsWith("\\")) {
        oldLeft--;
        newLeft--;
      }
      continue;
    }
    if (sectionHeader.test(line)) {
      startSection(index);
      hasDiffHeader = true;
    } else if (line.startsWith("--- ") && lines[index + 1]?.startsWith("+++ ")) {
      if (hasFileHeader || hasHunk) startSection(index);
      hasFileHeader = true;
      index++;
    } else {
      const hunk = hunkHeader.exec(line);
      if (hunk) {
        oldLeft = hunk[1] === undefined ? 1 : Number(hunk[1]);
        newLeft = hunk[2] === undefined ? 1 : Number(hunk[2]);
        hasHunk = true;
      }
    }
  }
  const sections: string[] = [];
  for (let index = 0; index < starts.length; index++) {
    const section = lines.slice(starts[index], starts[index + 1]).join("\n");
    if (section.trim() !== "") sections.push(section);
  }
  return sections;
}
