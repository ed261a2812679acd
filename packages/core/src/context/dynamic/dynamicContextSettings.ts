/** The limits of the dynamic context block (SPEC §6, seed 001 D1); every one can be overridden. */
export interface DynamicContextSettings {
  /** Open files shown, active file first. */
  maxOpenFiles: number;
  /** Share of the remaining budget one open file may take… */
  openFileShare: number;
  /** …and never more than this many tokens. */
  maxOpenFileTokens: number;
  /** Lines shown on each side of the cursor in the active file. */
  cursorRadiusLines: number;
  maxLintProblems: number;
  /** Characters of terminal output kept, the newest. */
  terminalTailChars: number;
  maxRecentEdits: number;
  /** Lines shown of each recently edited file. */
  recentEditLines: number;
  /** Search results are added only when more than this many tokens are left. */
  searchMinRemainingTokens: number;
  maxSearchResults: number;
  /** A slow index is given up on rather than holding the request back. */
  searchTimeoutMs: number;
  /** Bytes read from disk per file; more is never shown, so it is never read. */
  maxFileBytes: number;
}

export const dynamicContextDefaults: Readonly<DynamicContextSettings> = {
  maxOpenFiles: 3,
  openFileShare: 0.3,
  maxOpenFileTokens: 8000,
  cursorRadiusLines: 30,
  maxLintProblems: 20,
  terminalTailChars: 2000,
  maxRecentEdits: 5,
  recentEditLines: 50,
  searchMinRemainingTokens: 1000,
  maxSearchResults: 10,
  searchTimeoutMs: 5000,
  maxFileBytes: 1024 * 1024,
};
