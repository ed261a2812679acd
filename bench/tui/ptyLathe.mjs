// The built `lathe` in a pseudo-terminal, as a person starts it: every byte it writes to the
// terminal is kept with the time it arrived, so the bench can time echoes and count frames.
import { execFileSync } from "node:child_process";
import { readFileSync, readlinkSync } from "node:fs";
import { fileURLToPath } from "node:url";
import pty from "@lydell/node-pty";
import { fakeKeys } from "../../packages/testkit/dist/index.js";

const lathe = fileURLToPath(new URL("../../packages/cli/bin/lathe.js", import.meta.url));
export const terminalSize = { cols: 120, rows: 40 };

/** The V8 flags `lathe` runs with (its shebang), so the pty runs the very command a user would. */
function launcherFlags() {
  const shebang = readFileSync(lathe, "utf8").split("\n", 1)[0];
  return shebang.split(/\s+/).filter((word) => word.startsWith("--"));
}

/** CSI and OSC sequences, and lone escapes: what is left is the text drawn. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: escape sequences are control characters
const escapes = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[=>78M]/g;

export function stripEscapes(text) {
  return text.replace(escapes, "");
}

/**
 * Starts `lathe` with `args` in `project`, with HOME and LATHE_HOME at `home` and only the
 * environment a terminal session needs (no CI variable: Ink draws as it does for people).
 */
export function startLathe({ args, project, home }) {
  const startedAt = performance.now();
  const child = pty.spawn(process.execPath, [...launcherFlags(), lathe, ...args], {
    name: "xterm-256color",
    ...terminalSize,
    cwd: project,
    env: {
      HOME: home,
      LATHE_HOME: home,
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      TERM: "xterm-256color",
      OPENAI_API_KEY: fakeKeys.openaiBench,
    },
  });
  /** Every chunk written to the terminal, with its arrival time (performance.now()). */
  const chunks = [];
  let output = "";
  const waiters = new Set();
  child.onData((data) => {
    chunks.push({ at: performance.now(), data });
    output += data;
    for (const waiter of waiters) waiter();
  });
  let exited = false;
  const exit = new Promise((resolve) => {
    child.onExit(() => {
      exited = true;
      for (const waiter of waiters) waiter();
      resolve();
    });
  });

  /**
   * Resolves with the arrival time of the chunk after which `check(output)` first holds, checked
   * now and on every chunk. `check` gets all the output so far: it reads only the part it needs,
   * as a copy of megabytes at every chunk would slow this process and, with it, lathe's writes.
   */
  const waitForOutput = (check, { timeoutMs = 30_000, what = String(check) } = {}) =>
    new Promise((resolve, reject) => {
      const fail = (why) => {
        done();
        reject(new Error(`${why} waiting for ${what}:\n${stripEscapes(output.slice(-4000)).slice(-2000)}`));
      };
      const test = () => {
        if (check(output)) {
          done();
          resolve(chunks.at(-1)?.at ?? performance.now());
        } else if (exited) fail("lathe exited");
      };
      const timer = setTimeout(() => fail(`timed out after ${timeoutMs} ms`), timeoutMs);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(test);
      };
      waiters.add(test);
      test();
    });

  return {
    pid: child.pid,
    startedAt,
    chunks,
    output: () => output,
    type: (text) => child.write(text),
    waitForOutput,
    /** Whether lathe's terminal has canonical mode off: it reads single keys itself. */
    rawMode: () => {
      const device = readlinkSync(`/proc/${child.pid}/fd/0`);
      return /(^|\s)-icanon(\s|$)/.test(execFileSync("stty", ["-F", device, "-a"], { encoding: "utf8" }));
    },
    async close() {
      if (exited) return;
      child.kill("SIGHUP");
      const timer = setTimeout(() => child.kill("SIGKILL"), 3_000);
      await exit;
      clearTimeout(timer);
    },
  };
}
