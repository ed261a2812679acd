import { execFile } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { fakeKeys } from "@lathe/testkit";
import pty from "@lydell/node-pty";
import xterm, { type IBuffer } from "@xterm/headless";
import { makeWorkspace } from "./latheProcess.js";

/** The `lathe` users run (the shell launcher), so the pty sees the very process a user would. */
const latheLauncher = fileURLToPath(new URL("../bin/lathe", import.meta.url));

/** What the keys send on an xterm-compatible terminal, so tests read as key presses. */
export const keys = {
  enter: "\r",
  esc: "\x1b",
  ctrlC: "\x03",
  ctrlD: "\x04",
  ctrlY: "\x19",
  shiftTab: "\x1b[Z",
  up: "\x1b[A",
  down: "\x1b[B",
  backspace: "\x7f",
  left: "\x1b[D",
  right: "\x1b[C",
  tab: "\t",
  ctrlR: "\x12",
  /** As terminals with the kitty keyboard protocol (CSI u) send it. */
  shiftEnter: "\x1b[13;2u",
  altEnter: "\x1b\r",
} as const;

/** Text as a terminal with bracketed paste on sends a paste of it. */
export function bracketedPaste(text: string): string {
  return `\x1b[200~${text}\x1b[201~`;
}

export interface TerminalExit {
  exitCode: number;
  /** The signal's number, 0 when the process exited on its own. */
  signal: number;
}

/** Text on the screen, a pattern, or a check of the whole screen (counts, order, the status line). */
export type ScreenExpectation = string | RegExp | ((screen: string) => boolean);

export interface TerminalOptions {
  args: string[];
  /** The project folder; a fresh temporary one when absent. */
  cwd?: string;
  /** HOME and LATHE_HOME; a fresh temporary one when absent. */
  home?: string;
  /** Added to (and overriding) the harness's own environment. */
  env?: Record<string, string>;
  cols?: number;
  rows?: number;
}

export interface Terminal {
  /** The project folder lathe was started in. */
  root: string;
  /** HOME and LATHE_HOME of this run. */
  home: string;
  pid: number;
  /** Writes raw keys, as if typed (or pasted, for several at once). */
  type(text: string): void;
  /** Types `text`, waits for it to be echoed, then presses Enter, as a person typing a line would. */
  submit(text: string, timeoutMs?: number): Promise<void>;
  /** The whole buffer, scrollback included: lines trimmed at the right, joined with \n. */
  screen(): string;
  /** Only the rows on display now: where the live prompt and status line are. */
  viewport(): string;
  /** Whether lathe has asked for bracketed paste (ESC[?2004h) and not yet turned it off. */
  bracketedPasteMode(): boolean;
  /** The headless xterm's buffer: every cell with its colours and attributes, for screenshots. */
  buffer(): IBuffer;
  /**
   * Resolves once lathe reads keys itself (the terminal is in raw mode), which comes a little after
   * its first frame: keys typed before that are echoed by the terminal and held until a newline,
   * and the Enter among them arrives as "\n".
   */
  waitForInput(timeoutMs?: number): Promise<void>;
  /** Resolves with the screen once it shows `expected`; throws with the screen on timeout. */
  waitFor(expected: ScreenExpectation, timeoutMs?: number): Promise<string>;
  resize(cols: number, rows: number): void;
  exited: Promise<TerminalExit>;
  /**
   * Hangs up (SIGHUP, like closing the window), then SIGKILL if lathe is still there after 2 s.
   * Resolves with the processes lathe had started that outlived it (command lines), which it then
   * SIGKILLs: commands run in process groups of their own, so a hang-up does not reach them.
   */
  kill(): Promise<string[]>;
}

/** Everything started or made here, so one afterEach call leaves no process or folder behind. */
const started: Terminal[] = [];
const madeFolders: string[] = [];

/**
 * A temporary project and LATHE_HOME, removed by closeTerminals. Sandbox and checkpoints are off
 * unless `settings` says otherwise: both add processes to every start and command, which the
 * terminal UI does not depend on.
 */
export async function terminalWorkspace(
  files: Record<string, string> = {},
  settings: unknown = { sandbox: { mode: "off" }, checkpoints: { enabled: false } },
): Promise<{ root: string; home: string }> {
  const workspace = await makeWorkspace(files, settings);
  madeFolders.push(workspace.root, workspace.home);
  return workspace;
}

/** Starts the real `lathe` in a pseudo-terminal, its output rendered by a headless xterm. */
export async function startTerminal(options: TerminalOptions): Promise<Terminal> {
  const cols = options.cols ?? 100;
  const rows = options.rows ?? 30;
  const made = options.cwd && options.home ? undefined : await terminalWorkspace();
  const root = options.cwd ?? made!.root;
  const home = options.home ?? made!.home;
  const term = new xterm.Terminal({ cols, rows, allowProposedApi: true, scrollback: 5000 });
  const child = pty.spawn(latheLauncher, options.args, {
    name: "xterm-256color",
    cols,
    rows,
    cwd: root,
    env: {
      HOME: home,
      LATHE_HOME: home,
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      TERM: "xterm-256color",
      OPENAI_API_KEY: fakeKeys.openai,
      ...options.env,
    },
  });
  // xterm parses asynchronously: an exit is reported only once all earlier output is on screen.
  let parsed = Promise.resolve();
  child.onData((data) => {
    parsed = new Promise((resolve) => term.write(data, resolve));
  });
  let alive = true;
  // Set once the exit is known and the last output parsed: from then on the screen cannot change.
  let settled = false;
  const exited = new Promise<TerminalExit>((resolve) => {
    child.onExit(({ exitCode, signal }) => {
      alive = false;
      // node-pty may hand over the last output just after the exit event.
      setTimeout(
        () =>
          void parsed.then(() => {
            settled = true;
            resolve({ exitCode, signal: signal ?? 0 });
          }),
        50,
      );
    });
  });

  const linesOf = (from: number, to: number) => {
    const buffer = term.buffer.active;
    const lines: string[] = [];
    for (let i = from; i < to; i++) lines.push(buffer.getLine(i)?.translateToString(true) ?? "");
    return lines.join("\n");
  };
  const screen = () => linesOf(0, term.buffer.active.length);
  const viewport = () => linesOf(term.buffer.active.baseY, term.buffer.active.baseY + term.rows);

  const waitFor = async (expected: ScreenExpectation, timeoutMs = 10_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const text = screen();
      if (shows(text, expected)) return text;
      // After the exit nothing more will come: fail now rather than at the deadline.
      if (settled || Date.now() > deadline) {
        const why = settled ? "lathe exited" : `Timed out after ${timeoutMs} ms`;
        throw new Error(`${why} waiting for ${String(expected)}. Screen:\n${text.trimEnd()}`);
      }
      await sleep(25);
    }
  };

  const waitForInput = async (timeoutMs = 10_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await rawMode(child.pid))) {
      if (settled || Date.now() > deadline) {
        const why = settled ? "lathe exited" : `Timed out after ${timeoutMs} ms`;
        throw new Error(`${why} waiting for the terminal to be in raw mode. Screen:\n${screen().trimEnd()}`);
      }
      await sleep(25);
    }
  };

  const type = (text: string) => {
    if (alive) child.write(text);
  };

  const submit = async (text: string, timeoutMs = 5000) => {
    const before = occurrences(screen(), text);
    type(text);
    // Enter in the same chunk as the text would read as a paste to a UI that tells them apart.
    const deadline = Date.now() + timeoutMs;
    while (occurrences(screen(), text) <= before) {
      if (Date.now() > deadline) {
        throw new Error(`Typed ${JSON.stringify(text)} but it never showed. Screen:\n${screen().trimEnd()}`);
      }
      await sleep(25);
    }
    type(keys.enter);
  };

  const terminal: Terminal = {
    root,
    home,
    pid: child.pid,
    type,
    submit,
    screen,
    viewport,
    bracketedPasteMode: () => term.modes.bracketedPasteMode,
    buffer: () => term.buffer.active,
    waitForInput,
    waitFor,
    resize(newCols, newRows) {
      term.resize(newCols, newRows);
      // node-pty throws (EBADF) on resizing a terminal whose process has gone.
      if (alive) child.resize(newCols, newRows);
    },
    exited,
    async kill() {
      if (!alive) return [];
      // Listed before the hang-up: once lathe is gone its orphans no longer descend from it.
      const below = descendantsOf(child.pid);
      child.kill("SIGHUP");
      const gone = await Promise.race([exited.then(() => true), sleep(2000).then(() => false)]);
      if (!gone && alive) child.kill("SIGKILL");
      await exited;
      // A process group killed on the way out may take a moment to go.
      const deadline = Date.now() + 1000;
      while (Date.now() < deadline && below.some((entry) => running(entry.pid))) await sleep(25);
      const outlived = below.filter((entry) => running(entry.pid));
      for (const entry of outlived) {
        try {
          process.kill(entry.pid, "SIGKILL");
        } catch {
          // It ended on its own in the meantime.
        }
      }
      return outlived.map((entry) => entry.commandLine);
    },
  };
  started.push(terminal);
  return terminal;
}

/** For afterEach: stops every lathe started here and removes the folders made here. */
export async function closeTerminals(): Promise<void> {
  await Promise.all(started.splice(0).map((terminal) => terminal.kill()));
  await Promise.all(madeFolders.splice(0).map((path) => rm(path, { recursive: true, force: true })));
}

/**
 * Whether the terminal of `pid` has canonical mode off, as a UI reading single keys sets it. Read
 * with stty on the pseudo-terminal's own device (lathe's stdin), which node-pty does not expose.
 */
async function rawMode(pid: number): Promise<boolean> {
  try {
    const device = readlinkSync(`/proc/${pid}/fd/0`);
    const { stdout } = await promisify(execFile)("stty", ["-F", device, "-a"]);
    return /(^|\s)-icanon(\s|$)/.test(stdout);
  } catch {
    // Gone, or not started yet: not reading keys either way.
    return false;
  }
}

interface ProcessEntry {
  pid: number;
  ppid: number;
  commandLine: string;
}

/** Every running process, from /proc: zombies left out, as they no longer run (nobody reaps orphans here). */
function processTable(): ProcessEntry[] {
  const table: ProcessEntry[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The fields after the command name, which may itself hold spaces and parentheses.
      const fields = readFileSync(`/proc/${name}/stat`, "utf8").split(") ").at(-1)?.split(" ") ?? [];
      if (fields[0] === "Z") continue;
      const commandLine = readFileSync(`/proc/${name}/cmdline`, "utf8").replaceAll("\0", " ").trim();
      table.push({ pid: Number(name), ppid: Number(fields[1]), commandLine });
    } catch {
      // Gone between the listing and the read.
    }
  }
  return table;
}

/** The processes below `root`, however deep. */
function descendantsOf(root: number): ProcessEntry[] {
  const table = processTable();
  const found: ProcessEntry[] = [];
  const parents = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const entry of table) {
      if (parents.has(entry.ppid) && !parents.has(entry.pid)) {
        parents.add(entry.pid);
        found.push(entry);
        grew = true;
      }
    }
  }
  return found;
}

/** Whether `pid` still runs (a zombie does not). */
function running(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ").at(-1)?.[0] !== "Z";
  } catch {
    return false;
  }
}

/** "pid: command line" of every running process whose command line contains `text`. */
export function processesMatching(text: string): string[] {
  return processTable()
    .filter((entry) => entry.pid !== process.pid && entry.commandLine.includes(text))
    .map((entry) => `${entry.pid}: ${entry.commandLine}`);
}

/** Whether a screen meets an expectation. */
function shows(screen: string, expected: ScreenExpectation): boolean {
  if (typeof expected === "string") return screen.includes(expected);
  if (expected instanceof RegExp) return expected.test(screen);
  return expected(screen);
}

/** How often `part` occurs in `text`, to tell a new echo from text already on screen. */
export function occurrences(text: string, part: string): number {
  return part === "" ? 0 : text.split(part).length - 1;
}

/** Polling and grace periods, without blocking the scripted model server in this process. */
function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
