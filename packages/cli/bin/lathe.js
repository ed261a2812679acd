#!/usr/bin/env -S node --max-semi-space-size=8
// Starts Lathe on a supported Node. Lathe needs Node >= 22; when the Node running this file is
// older (machines that ship Node 20), it re-runs itself with the Node 24 that the setup script
// installed under the repository's .tools/node, passing arguments, stdio, signals and exit code.
//
// A CommonJS script (bin/package.json says so): Node starts one ~7 ms sooner than an ES module, and
// the usual path (the image, then execve) is over in a millisecond once it runs.
const { existsSync, readFileSync, realpathSync, statSync } = require("node:fs");
const { dirname, join } = require("node:path");
const { pathToFileURL } = require("node:url");

// V8 otherwise lets the young generation grow to tens of megabytes on a large machine and keeps
// that memory for the life of the process; 8 MB semi-spaces hold a 100-turn session's growth to
// about 30 MB instead of 110 (bench/startup), for more frequent minor collections. The shebang
// passes the same flags; bench/startup reads them from there.
const heapFlags = ["--max-semi-space-size=8"];

const here = dirname(realpathSync(__filename));
const major = Number(process.versions.node.split(".")[0]);

// The start-up snapshot (scripts/build-snapshot.mjs), used when the build made it for the Node
// that is to run Lathe, as bin/lathe does (see there).
const blob = join(here, "..", "dist", "lathe.blob");
// V8 otherwise draws a new hash seed at every start and rehashes every table in the image with it
// (~10 ms of a ~25 ms read). The image keeps the seed it was built with instead: one drawn at random
// for that build, on this machine (scripts/build-snapshot.mjs), which input from outside (a file, a
// model's answer) cannot know and so cannot aim hash collisions at.
const snapshotFlags = ["--no-rehash-snapshot", "--snapshot-blob", blob];

if (major >= 22) {
  // This process becomes Node started from the snapshot: the same pid and stdio.
  if (snapshotMadeFor(blob, process.execPath) && typeof process.execve === "function") {
    const flags = process.execArgv.some((flag) => flag.startsWith("--max-semi-space-size")) ? [] : heapFlags;
    process.execve(process.execPath, [
      process.execPath,
      ...process.execArgv,
      ...flags,
      ...snapshotFlags,
      "--",
      ...process.argv.slice(2),
    ]);
  }
  // Compiled code is cached on disk between runs: start-up is mostly compiling modules.
  require("node:module").enableCompileCache?.();
  import(pathToFileURL(join(here, "..", "dist", "main.js")).href);
} else {
  const candidates = [
    process.env.LATHE_NODE,
    join(here, "..", "..", "..", ".tools", "node", "node_modules", "node", "bin", "node"),
  ].filter(Boolean);
  const node = candidates.find((path) => existsSync(path));
  if (!node) {
    process.stderr.write(
      `lathe: Node ${process.versions.node} is too old; Lathe needs Node 22 or newer.\n` +
        "Install Node 24, or run the repository's setup (bash scripts/setup.sh), which installs it locally.\n",
    );
    process.exit(1);
  }
  // The child starts from the snapshot when the build made one for that Node; otherwise it runs
  // this file again and takes the branch above, so the compile cache is on for this path too,
  // without a NODE_COMPILE_CACHE that every program Lathe starts would inherit. (Not this file
  // then an execve: that would close the pipe below.)
  // Signals are forwarded below, but a SIGKILL of this launcher cannot be: the engine would go on
  // editing the project, orphaned. So it gets one end of a pipe as fd 3 and stops when that end
  // closes, which the kernel does when this process dies, however it dies (src/launcherWatch.ts).
  const { spawn } = require("node:child_process");
  const { constants } = require("node:os");
  const start = snapshotMadeFor(blob, node) ? [...snapshotFlags, "--"] : [__filename];
  const child = spawn(node, [...heapFlags, ...start, ...process.argv.slice(2)], {
    stdio: ["inherit", "inherit", "inherit", "pipe"],
    env: { ...process.env, LATHE_PARENT_FD: "3" },
  });
  // In a terminal, Ctrl+C already reaches the child through the process group.
  const forwarded = process.stdin.isTTY ? ["SIGTERM", "SIGHUP"] : ["SIGINT", "SIGTERM", "SIGHUP"];
  for (const signal of forwarded) process.on(signal, () => child.kill(signal));
  if (process.stdin.isTTY) process.on("SIGINT", () => {});
  child.on("exit", (code, signal) => {
    process.exit(signal ? 128 + (constants.signals[signal] ?? 0) : (code ?? 1));
  });
}

/** Whether `blob` exists and was built here, by this very Node binary (its size, mtime and path). */
function snapshotMadeFor(blob, node) {
  try {
    const [madeFor, madeIn] = readFileSync(`${blob}.node`, "utf8").split("\n");
    const binary = realpathSync(node);
    const { size, mtime } = statSync(binary);
    return (
      existsSync(blob) &&
      madeIn === here &&
      madeFor === `${size} ${Math.floor(mtime.getTime() / 1000)} ${binary}`
    );
  } catch {
    return false;
  }
}
