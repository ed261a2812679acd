const fenceOpen = /^(`{3,}|~{3,})/;
const whitespace = /\s/;

/**
 * Passes on the prose of a streamed markdown answer, character by character, with every run of
 * whitespace (line breaks and indentation included) as one space. Left out, because they repeat
 * legitimately: fenced code blocks (``` or ~~~), indented code (4+ spaces), and table rows
 * (lines starting with `|`). A line is classified once its first three visible characters are in.
 */
export class ProseFilter {
  private inFence = false;
  private fenceChar = "";
  private head = "";
  private kind: "pending" | "prose" | "skip" = "pending";
  private lastWasSpace = true;

  constructor(private readonly emit: (codePoint: number) => void) {}

  push(delta: string): void {
    for (const char of delta) {
      if (char === "\n" || char === "\r") this.endLine();
      else if (this.kind === "pending") {
        this.head += char;
        this.classify(false);
      } else if (this.kind === "prose") this.emitChar(char);
    }
  }

  private endLine(): void {
    if (this.kind === "pending") this.classify(true);
    if (this.kind === "prose") this.emitChar(" ");
    this.kind = "pending";
    this.head = "";
  }

  private classify(lineEnded: boolean): void {
    const visible = this.head.trimStart();
    const indent = this.head.length - visible.length + (this.head.match(/\t/g)?.length ?? 0) * 3;
    if (!lineEnded && visible.length < 3 && indent < 4) return;
    const fence = indent < 4 ? fenceOpen.exec(visible) : null;
    if (fence) {
      const char = fence[1]![0]!;
      if (!this.inFence) {
        this.inFence = true;
        this.fenceChar = char;
      } else if (char === this.fenceChar) this.inFence = false;
      this.kind = "skip";
    } else if (this.inFence || indent >= 4 || visible.startsWith("|")) {
      this.kind = "skip";
    } else {
      this.kind = "prose";
      for (const char of this.head) this.emitChar(char);
    }
  }

  private emitChar(char: string): void {
    if (whitespace.test(char)) {
      if (!this.lastWasSpace) this.emit(32);
      this.lastWasSpace = true;
    } else {
      this.emit(char.codePointAt(0)!);
      this.lastWasSpace = false;
    }
  }
}
