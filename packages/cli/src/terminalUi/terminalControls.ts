/** What the keys of the terminal UI do to the session; the app itself only draws and edits text. */
export interface TerminalControls {
  submit(text: string): void;
  /** Esc, or Ctrl+C during a run: stops it at once. */
  stop(): void;
  /** Ctrl+C at the idle prompt: the first asks for a second, which exits. */
  interrupt(): void;
  exit(): void;
  /** Shift+Tab: agent → plan → ask → debug. */
  cycleMode(): void;
  /** Ctrl+Y: manual → ask_first → auto_edit → auto; yolo only when typed (`/approval yolo`). */
  cycleApprovalMode(): void;
  busy(): boolean;
  /** Earlier messages of this project, newest last, for Up and Down and Ctrl+R. */
  history(): readonly string[];
  /** Tab: the line completed, when it begins a slash command. */
  complete(line: string): string;
  /**
   * What may follow an `@` being typed (`query` is what follows it so far): files and folders of
   * the project (folders ending in `/`), then mention kinds, each written as it follows the `@`.
   */
  completeMention(query: string): Promise<readonly string[]>;
}
