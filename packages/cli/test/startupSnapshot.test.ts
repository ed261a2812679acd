import { execFile, execFileSync, spawn } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type FakeLlm, fakeKeys, startFakeLlm } from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { headlessArgs, makeWorkspace, runLathe } from "./latheProcess.js";

const bin = fileURLToPath(new URL("../bin/", import.meta.url));
const blob = fileURLToPath(new URL("../dist/lathe.blob", import.meta.url));

let server: FakeLlm | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/**
 * `lathe -p` started as `program args…` against a model that holds its answer for a moment: the
 * command line of the process while it waits, its pid, and how it ended.
 */
async function runHeld(program: string, programArgs: string[]) {
  server = await startFakeLlm({ script: { turns: [{ hang_ms: 1500, text: "Held, then answered." }] } });
  const ws = await makeWorkspace({ "README.md": "# A project\n" });
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !/_API_KEY$/.test(key) && key !== "LATHE_MODEL") env[key] = value;
  }
  Object.assign(env, { LATHE_HOME: ws.home, HOME: ws.home, OPENAI_API_KEY: fakeKeys.openai });
  const args = headlessArgs("hello", { root: ws.root, serverUrl: server.url, format: "text" });
  const child = spawn(program, [...programArgs, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.resume();
  const model = server;
  const deadline = Date.now() + 15_000;
  while (model.requests.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const cmdline = readFileSync(`/proc/${child.pid}/cmdline`, "utf8").split("\0").filter(Boolean);
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { ws, pid: child.pid!, cmdline, code, stdout };
}

describe.skipIf(!existsSync(blob))("the start-up snapshot", () => {
  it("runs `node bin/lathe.js` from the snapshot, in the same process, with the arguments after --", async () => {
    const run = await runHeld(process.execPath, [join(bin, "lathe.js")]);
    const dashes = run.cmdline.indexOf("--");
    expect(run.cmdline.slice(1, dashes)).toEqual([
      "--max-semi-space-size=8",
      "--no-rehash-snapshot",
      "--snapshot-blob",
      blob,
    ]);
    expect(run.cmdline.slice(dashes + 1, dashes + 3)).toEqual(["-p", "hello"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Held, then answered.\n");
    // What pino read when it loaded came from the machine that built the snapshot: the log names
    // the process that wrote it.
    const lines = readFileSync(join(run.ws.home, "logs", "lathe.log"), "utf8")
      .trim()
      .split("\n");
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      const entry = JSON.parse(line) as { pid: number; hostname: string };
      expect([entry.pid, entry.hostname]).toEqual([run.pid, hostname()]);
    }
  });

  it("draws new ids in every process: the snapshot holds no random state", async () => {
    server = await startFakeLlm({ script: { turns: [{ text: "one" }, { text: "two" }] } });
    const ids: string[] = [];
    for (const _ of [1, 2]) {
      const ws = await makeWorkspace({ "README.md": "# A project\n" });
      const run = await runLathe(headlessArgs("hello", { root: ws.root, serverUrl: server.url }), {
        home: ws.home,
        env: { OPENAI_API_KEY: fakeKeys.openai },
      });
      expect(run.code, run.stderr).toBe(0);
      ids.push((JSON.parse(run.stdout) as { session_id: string }).session_id);
    }
    // A UUIDv7 ends in random bits: equal ends would mean random state taken along from the build.
    const randomEnds = ids.map((id) => id.slice(-12));
    expect(randomEnds[0]).toMatch(/^[0-9a-f]{12}$/);
    expect(randomEnds[1]).not.toBe(randomEnds[0]);
  });

  it("holds the bytecode of what a run calls before its first request, so a start compiles little", async () => {
    server = await startFakeLlm({ script: { turns: [{ text: "ok" }] } });
    const ws = await makeWorkspace({ "README.md": "# A project\n" });
    const log = join(ws.home, "v8.log");
    const args = headlessArgs("hello", { root: ws.root, serverUrl: server.url, format: "text" });
    // Asynchronously: the scripted server answers from this process.
    await promisify(execFile)(
      process.execPath,
      [
        "--no-rehash-snapshot",
        "--snapshot-blob",
        blob,
        "--log-function-events",
        `--logfile=${log}`,
        "--no-logfile-per-isolate",
        "--",
        ...args,
      ],
      {
        env: { PATH: process.env.PATH, HOME: ws.home, LATHE_HOME: ws.home, OPENAI_API_KEY: fakeKeys.openai },
      },
    );
    const lines = readFileSync(log, "utf8")
      .split("\n")
      .map((line) => line.split(","));
    const bundle = lines.find(
      (f) => f[0] === "script-details" && f[2]?.endsWith("/dist/lathe.snapshot.cjs"),
    )?.[1];
    const request = lines.find(
      (f) => f[0] === "function" && f[1] === "first-execution" && f[7] === "ClientRequest",
    );
    expect(bundle).toBeDefined();
    expect(request).toBeDefined();
    // V8's log: `function,interpreter,<script>,<start>,<end>,<ms>,<µs since start>,<name>` for
    // each function compiled. Without the functions compiled ahead, ~600 of the bundle's are.
    const compiled = lines.filter(
      (f) =>
        f[0] === "function" &&
        f[1] === "interpreter" &&
        f[2] === bundle &&
        Number(f[6]) < Number(request?.[6]),
    );
    expect(compiled.length).toBeGreaterThan(0);
    expect(compiled.length).toBeLessThan(200);
  });

  it("runs the installed `bin/lathe` from the snapshot made for the Node it picks", async () => {
    const run = await runHeld(join(bin, "lathe"), []);
    const dashes = run.cmdline.indexOf("--");
    expect(run.cmdline.slice(1, dashes)).toEqual([
      "--max-semi-space-size=8",
      "--no-rehash-snapshot",
      "--snapshot-blob",
      `${bin}../dist/lathe.blob`,
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Held, then answered.\n");
  });
});

describe("bin/lathe's choice of start", () => {
  /**
   * bin/lathe copied into a temp folder with an empty snapshot beside it, started with a stand-in
   * for Node (LATHE_NODE) that prints the arguments it was given, one per line.
   */
  function launcherIn(
    stamp: (node: { size: number; mtime: number; path: string }, bin: string) => string | undefined,
  ) {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "lathe-launcher-")));
    mkdirSync(join(root, "bin"));
    mkdirSync(join(root, "dist"));
    copyFileSync(join(bin, "lathe"), join(root, "bin", "lathe"));
    writeFileSync(join(root, "dist", "lathe.blob"), "");
    const node = join(root, "node");
    writeFileSync(node, "#!/bin/sh\nprintf '%s\\n' \"$@\"\n");
    chmodSync(node, 0o755);
    const { size, mtime } = statSync(node);
    const line = stamp({ size, mtime: Math.floor(mtime.getTime() / 1000), path: node }, join(root, "bin"));
    if (line !== undefined) writeFileSync(join(root, "dist", "lathe.blob.node"), line);
    const args = execFileSync(join(root, "bin", "lathe"), ["-p", "two words"], {
      env: { ...process.env, LATHE_NODE: node },
      encoding: "utf8",
    });
    return { root, args: args.trimEnd().split("\n") };
  }

  it("starts from the snapshot made for that Node in that folder, Lathe's arguments after --", () => {
    const { root, args } = launcherIn((node, bin) => `${node.size} ${node.mtime} ${node.path}\n${bin}\n`);
    expect(args).toEqual([
      "--max-semi-space-size=8",
      "--no-rehash-snapshot",
      "--snapshot-blob",
      `${root}/bin/../dist/lathe.blob`,
      "--",
      "-p",
      "two words",
    ]);
  });

  it.each([
    [
      "another Node binary",
      (node: { size: number; mtime: number; path: string }, bin: string) =>
        `${node.size + 1} ${node.mtime} ${node.path}\n${bin}\n`,
    ],
    [
      "another folder",
      (node: { size: number; mtime: number; path: string }) =>
        `${node.size} ${node.mtime} ${node.path}\n/elsewhere/bin\n`,
    ],
    ["no record of either", () => undefined],
  ])("runs lathe.js instead when the snapshot was made for %s", (_, stamp) => {
    const { root, args } = launcherIn(stamp);
    expect(args).toEqual(["--max-semi-space-size=8", join(root, "bin", "lathe.js"), "-p", "two words"]);
  });
});
