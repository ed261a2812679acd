/**
 * `off`: commands run as the user. `auto`: in bubblewrap when it works here, otherwise as the
 * user with a notice. `required`: in bubblewrap or not at all.
 */
export type SandboxMode = "off" | "auto" | "required";

export interface SandboxSettings {
  mode: SandboxMode;
  /** Leave the network on inside the sandbox for every command, not only for approved ones. */
  network: boolean;
}

/** Whether bubblewrap can sandbox commands on this machine; see `detectSandbox`. */
export interface SandboxDetection {
  available: boolean;
  /** Why not, when unavailable: shown to the user. */
  reason?: string;
  /** Absolute path of the working `bwrap`, when available. */
  bwrapPath?: string;
}

/**
 * The sandbox as the engine hands it to a tool call (`ToolContext.sandbox`). Only the engine
 * fills it: the model has no argument that loosens the sandbox, so running a call outside it or
 * with the network is always a grant the user gave for that call id.
 */
export interface SandboxContext {
  settings: SandboxSettings;
  detection: SandboxDetection;
  /**
   * The session's private temporary directory, mounted as `/tmp` inside the sandbox: shared by
   * the session's commands, hidden from everything else. Created (mode 0700) when missing; the
   * engine removes it when the session ends.
   */
  tempDir: string;
  /** Directories besides the project that commands may write to (extra roots the user allowed). */
  writableRoots?: readonly string[];
  /** Calls the user approved to run outside the sandbox, by call id: retries after a denial. */
  unsandboxedCallIds?: ReadonlySet<string>;
  /**
   * Calls that run with the network inside the sandbox, by call id: the policy judged they need
   * it (`Assessment.needsNetwork`) and the user approved.
   */
  networkCallIds?: ReadonlySet<string>;
}

/** Everything needed to start one command inside bubblewrap. */
export interface SandboxLaunch {
  bwrapPath: string;
  /** Writable, as is `writableRoots`; everything else is read-only. */
  projectRoot: string;
  /** Host directory mounted as the private `/tmp`. */
  tempDir: string;
  writableRoots?: readonly string[];
  network: boolean;
}
