import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import type { SandboxLaunch } from "../../policy/sandbox/sandboxTypes.js";
import { processGroupAlive, signalProcessGroup } from "../../processes/processGroup.js";
import { type ShellProcess, spawnShell } from "../../processes/shellProcess.js";
import { OutputRing, type RingRead } from "./outputRing.js";

export interface BackgroundTerminalsOptions {
  /** Commands that may run at once (default 8). */
  maxRunning?: number;
  /** Bytes kept per stream, the newest (default 1 MiB). */
  maxStreamBytes?: number;
  /** Between SIGTERM and SIGKILL: time for a command to clean up after itself (default 2000 ms). */
  killGraceMs?: number;
  /** Finished commands kept readable (default 32); the oldest are forgotten first. */
  maxFinishedKept?: number;
}

export type TerminalStatus =
  | { state: "running" }
  | { state: "exited"; code: number | null; signal: NodeJS.Signals | null }
  /** Stopped by `kill` or `killAll`; `signal` is the one that ended the command. */
  | { state: "killed"; signal: NodeJS.Signals | null };

export interface TerminalInfo {
  /** Short and stable within the session: `t1`, `t2`, … */
  id: string;
  pid: number;
  command: string;
  cwd: string;
  startedAt: number;
  endedAt?: number;
  status: TerminalStatus;
  /** bash has ended, but processes it started (`server &`) still run and hold its output open. */
  childrenRunning: boolean;
  /** Present when the command runs in the sandbox: how, for judging its failures later. */
  sandbox?: SandboxLaunch;
}

export interface TerminalOutput extends TerminalInfo {
  stdout: RingRead;
  stderr: RingRead;
}

export type TerminalStart = { ok: true; terminal: TerminalInfo } | { ok: false; error: LatheErrorInfo };

interface Terminal {
  id: string;
  pid: number;
  command: string;
  cwd: string;
  sandbox: SandboxLaunch | undefined;
  startedAt: number;
  endedAt?: number;
  status: TerminalStatus;
  stdout: OutputRing;
  stderr: OutputRing;
  /** Where the last read stopped, per stream. */
  cursors: { stdout: number; stderr: number };
  killRequested: boolean;
  /** Settles when the command has ended (the status is no longer running). */
  ended: Promise<void>;
  /**
   * Settles when bash has exited and nothing holds its output pipes any more: from then on the
   * group is done with, and its id (which the system may reuse) is never signalled again.
   */
  closed: Promise<void>;
  isClosed: boolean;
}

const defaults = {
  maxRunning: 8,
  maxStreamBytes: 1024 * 1024,
  killGraceMs: 2000,
  maxFinishedKept: 32,
};
/** After bash exits, how long its output may still arrive before the command counts as ended. */
const drainGraceMs = 500;
/** After SIGKILL, how long to wait for the group to let go of its output and its exit to be reported. */
const killReportMs = 1000;

/**
 * The commands a session runs in the background (dev servers, watchers), each in its own process
 * group with the newest output of each stream kept for reading later. One registry per session;
 * `killAll` when the session ends, and whatever is still running when Node exits is killed too.
 */
export class BackgroundTerminals {
  private readonly terminals = new Map<string, Terminal>();
  private readonly settings: Required<BackgroundTerminalsOptions>;
  private nextNumber = 1;
  private exitHookInstalled = false;

  constructor(options: BackgroundTerminalsOptions = {}) {
    this.settings = { ...defaults, ...options };
  }

  /**
   * With `options.sandbox`, the command runs inside bubblewrap (see `spawnShell`); it keeps the
   * variables of `options.passEnvironment` that hold secrets, and no others.
   */
  async start(
    command: string,
    cwd: string,
    options: { sandbox?: SandboxLaunch; passEnvironment?: readonly string[] } = {},
  ): Promise<TerminalStart> {
    const running = this.list().filter((terminal) => terminal.status.state === "running");
    if (running.length >= this.settings.maxRunning) {
      const listing = running.map((terminal) => `${terminal.id} (${terminal.command})`).join(", ");
      const message =
        `${running.length} background commands are already running, the most a session may have: ` +
        `${listing}. Stop one with terminal_kill first.`;
      return { ok: false, error: errorInfo("E_TOOL_EXECUTION", message) };
    }

    const child = spawnShell(command, cwd, options.sandbox, { passEnvironment: options.passEnvironment });
    const pid = child.pid;
    if (pid === undefined) {
      const failure = await new Promise<Error>((resolve) => child.once("error", resolve));
      return { ok: false, error: errorInfo("E_TOOL_EXECUTION", `Could not start bash: ${failure.message}`) };
    }
    const terminal = this.track(child, pid, command, cwd, options.sandbox);
    this.forgetOldFinished();
    return { ok: true, terminal: infoOf(terminal) };
  }

  list(): TerminalInfo[] {
    return [...this.terminals.values()].map(infoOf);
  }

  get(id: string): TerminalInfo | undefined {
    const terminal = this.terminals.get(id);
    return terminal === undefined ? undefined : infoOf(terminal);
  }

  /**
   * Output of a command: by default what came since the previous read; with `sinceLast: false`,
   * all that is still kept. Either way the next read starts after this one.
   */
  read(id: string, options: { sinceLast: boolean }): TerminalOutput | undefined {
    const terminal = this.terminals.get(id);
    if (terminal === undefined) return undefined;
    const from = options.sinceLast ? terminal.cursors : { stdout: 0, stderr: 0 };
    const stdout = terminal.stdout.read(from.stdout);
    const stderr = terminal.stderr.read(from.stderr);
    terminal.cursors = { stdout: stdout.nextOffset, stderr: stderr.nextOffset };
    return { ...infoOf(terminal), stdout, stderr };
  }

  /** Waits until the command ends, at most `timeoutMs`; true when it has ended. */
  async waitForEnd(id: string, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    const terminal = this.terminals.get(id);
    if (terminal === undefined) return false;
    if (signal?.aborted) return terminal.status.state !== "running";
    let onAbort = () => {};
    const aborted = new Promise<void>((resolve) => {
      onAbort = resolve;
    });
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      await settledWithin(Promise.race([terminal.ended, aborted]), timeoutMs);
    } finally {
      signal?.removeEventListener("abort", onAbort);
    }
    return terminal.status.state !== "running";
  }

  /**
   * Stops a command and everything it started: SIGTERM to the group, SIGKILL to whatever is left
   * after the grace. Settles with the final status; undefined for an unknown id.
   */
  async kill(id: string): Promise<TerminalInfo | undefined> {
    const terminal = this.terminals.get(id);
    if (terminal === undefined) return undefined;
    await this.stop(terminal);
    return infoOf(terminal);
  }

  /** Stops every command of the session; for session end and shutdown. */
  async killAll(): Promise<void> {
    await Promise.all([...this.terminals.values()].map((terminal) => this.stop(terminal)));
  }

  private track(
    child: ShellProcess,
    pid: number,
    command: string,
    cwd: string,
    sandbox: SandboxLaunch | undefined,
  ): Terminal {
    let markEnded = () => {};
    let markClosed = () => {};
    const terminal: Terminal = {
      id: `t${this.nextNumber++}`,
      pid,
      command,
      cwd,
      sandbox,
      startedAt: Date.now(),
      status: { state: "running" },
      stdout: new OutputRing(this.settings.maxStreamBytes),
      stderr: new OutputRing(this.settings.maxStreamBytes),
      cursors: { stdout: 0, stderr: 0 },
      killRequested: false,
      ended: new Promise((resolve) => {
        markEnded = resolve;
      }),
      closed: new Promise((resolve) => {
        markClosed = resolve;
      }),
      isClosed: false,
    };
    this.terminals.set(terminal.id, terminal);
    this.installExitHook();

    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let drainTimer: NodeJS.Timeout | undefined;
    const end = () => {
      clearTimeout(drainTimer);
      if (terminal.status.state !== "running") return;
      const code = exit?.code ?? null;
      const signal = exit?.signal ?? null;
      terminal.status = terminal.killRequested
        ? { state: "killed", signal }
        : { state: "exited", code, signal };
      terminal.endedAt = Date.now();
      markEnded();
    };

    child.stdout.on("data", (chunk: Buffer) => terminal.stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => terminal.stderr.push(chunk));
    child.stdout.on("end", () => terminal.stdout.end());
    child.stderr.on("end", () => terminal.stderr.end());
    child.on("exit", (code, signal) => {
      exit = { code, signal };
      // What the sandbox undid after the command, where the model reads the command's output.
      if (child.sandboxNote !== undefined) terminal.stderr.push(Buffer.from(`\n${child.sandboxNote}\n`));
      // Processes bash left behind may hold the pipes open for good; the command has ended anyway.
      drainTimer = setTimeout(end, drainGraceMs);
    });
    child.on("close", (code, signal) => {
      exit ??= { code, signal };
      end();
      terminal.isClosed = true;
      markClosed();
      this.removeExitHookWhenIdle();
    });
    return terminal;
  }

  private async stop(terminal: Terminal): Promise<void> {
    if (terminal.isClosed) return;
    if (terminal.status.state === "running") terminal.killRequested = true;
    signalProcessGroup(terminal.pid, "SIGTERM");
    await settledWithin(terminal.closed, this.settings.killGraceMs);
    // Also after a close: a process that ignored SIGTERM may have let go of the pipes.
    if (processGroupAlive(terminal.pid)) signalProcessGroup(terminal.pid, "SIGKILL");
    await settledWithin(terminal.closed, killReportMs);
  }

  /** Keeps memory bounded in long sessions: finished commands beyond the limit are forgotten, oldest first. */
  private forgetOldFinished(): void {
    const finished = [...this.terminals.values()].filter((terminal) => terminal.isClosed);
    const excess = finished.length - this.settings.maxFinishedKept;
    for (const terminal of finished.slice(0, Math.max(0, excess))) this.terminals.delete(terminal.id);
  }

  /**
   * Groups live apart from Node's own, so nothing kills them when Node exits; this does, for an
   * exit that skipped `killAll` (a second Ctrl+C, a crash).
   */
  private readonly killOnProcessExit = () => {
    for (const terminal of this.terminals.values()) {
      if (!terminal.isClosed) signalProcessGroup(terminal.pid, "SIGKILL");
    }
  };

  private installExitHook(): void {
    if (this.exitHookInstalled) return;
    process.on("exit", this.killOnProcessExit);
    this.exitHookInstalled = true;
  }

  private removeExitHookWhenIdle(): void {
    if (!this.exitHookInstalled) return;
    if ([...this.terminals.values()].some((terminal) => !terminal.isClosed)) return;
    process.off("exit", this.killOnProcessExit);
    this.exitHookInstalled = false;
  }
}

function infoOf(terminal: Terminal): TerminalInfo {
  const info: TerminalInfo = {
    id: terminal.id,
    pid: terminal.pid,
    command: terminal.command,
    cwd: terminal.cwd,
    startedAt: terminal.startedAt,
    status: terminal.status,
    childrenRunning: terminal.status.state !== "running" && !terminal.isClosed,
  };
  if (terminal.endedAt !== undefined) info.endedAt = terminal.endedAt;
  if (terminal.sandbox !== undefined) info.sandbox = terminal.sandbox;
  return info;
}

/** Waits for `promise`, at most `ms`, without leaving a timer behind. */
async function settledWithin(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  try {
    await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
