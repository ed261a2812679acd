import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, readlinkSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type FakeLlm, fakeKeys, processAlive, processGoneWithin, startFakeLlm } from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { headlessArgs, makeWorkspace } from "./latheProcess.js";

const latheBin = fileURLToPath(new URL("../bin/lathe.js", import.meta.url));
/** The system's Node: older than 22 here, so bin/lathe.js starts the engine as a child on another Node. */
const oldNode = "/usr/bin/node";
const oldNodeMajor = existsSync(oldNode)
  ? Number(spawnSync(oldNode, ["-p", "process.versions.node"], { encoding: "utf8" }).stdout.split(".")[0])
  : Number.NaN;

let server: FakeLlm | undefined;
const leftovers: number[] = [];
afterEach(async () => {
  for (const pgid of leftovers.splice(0)) {
    try {
      process.kill(-pgid, "SIGKILL");
    } catch {
      // Already gone, as it should be.
    }
  }
  await server?.close();
  server = undefined;
});

interface ProcStat {
  pid: number;
  state: string;
  ppid: number;
  pgid: number;
}

/** Every live process, from /proc: the command name may hold spaces, so fields count from its ")". */
function processes(): ProcStat[] {
  const found: ProcStat[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const fields = readFileSync(`/proc/${name}/stat`, "utf8").split(") ")[1]!.split(" ");
      found.push({ pid: Number(name), state: fields[0]!, ppid: Number(fields[1]), pgid: Number(fields[2]) });
    } catch {
      // It exited while we looked.
    }
  }
  return found;
}

const childrenOf = (pid: number) => processes().filter((p) => p.ppid === pid && p.state !== "Z");
const groupMembers = (pgid: number) => processes().filter((p) => p.pgid === pgid && p.state !== "Z");

async function until<T>(probe: () => T | undefined, what: string, withinMs = 15_000): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const sizeOf = (path: string) => (existsSync(path) ? statSync(path).size : 0);

/** Appends a line every 100 ms for 20 s, after noting what it inherited: the variable and its fds. */
const ticking =
  `echo "\${LATHE_PARENT_FD-unset}" > env.txt; ls -l /proc/$$/fd > fds.txt; ` +
  "for i in $(seq 1 200); do echo $i >> ticks.txt; sleep 0.1; done";

const installedBin = fileURLToPath(new URL("../bin/lathe", import.meta.url));

/**
 * A run whose command ticks while the scripted model waits to have `late.txt` written next,
 * started as `program args…` in a process group of its own, in a throwaway home.
 */
async function startTickingRun(sandboxMode: string, program: string, programArgs: string[], extraEnv = {}) {
  server = await startFakeLlm({
    script: {
      turns: [
        { tool_calls: [{ name: "run_terminal_cmd", arguments: { command: ticking } }] },
        { tool_calls: [{ name: "write_file", arguments: { path: "late.txt", contents: "too late\n" } }] },
        { text: "Done." },
      ],
    },
  });
  const ws = await makeWorkspace({}, { sandbox: { mode: sandboxMode } });
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !/_API_KEY$/.test(key) && key !== "LATHE_MODEL") env[key] = value;
  }
  Object.assign(env, { LATHE_HOME: ws.home, HOME: ws.home, OPENAI_API_KEY: fakeKeys.openai }, extraEnv);
  const args = headlessArgs("tick", { root: ws.root, serverUrl: server.url, format: "stream-json" }, [
    "--approval-mode",
    "yolo",
  ]);
  const started = spawn(program, [...programArgs, ...args], {
    env,
    cwd: ws.root,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  leftovers.push(started.pid!);
  started.stdout.resume();
  started.stderr.resume();
  return { ws, pid: started.pid!, model: server };
}

// Without a Node older than 22 there is no launcher between the caller and the engine to kill.
describe.skipIf(!(oldNodeMajor < 22))("kill -9 of the launcher", () => {
  it.each(["off", "auto"])("stops the engine and its command at once (sandbox %s)", async (sandboxMode) => {
    const { ws, pid: launcherPid, model } = await startTickingRun(sandboxMode, oldNode, [latheBin]);
    const ticks = join(ws.root, "ticks.txt");
    await until(() => (sizeOf(ticks) >= 4 ? true : undefined), "the command to tick");
    const engine = await until(() => childrenOf(launcherPid)[0], "the engine");
    // The command's group: led by bash, or by bwrap when sandboxed.
    const command = await until(() => childrenOf(engine.pid).find((p) => p.pgid === p.pid), "the command");
    leftovers.push(command.pid);
    expect(readFileSync(join(ws.root, "env.txt"), "utf8")).toBe("unset\n");
    const pipe = readlinkSync(`/proc/${engine.pid}/fd/3`);
    expect(pipe).toMatch(/^(socket|pipe):/);
    expect(readFileSync(join(ws.root, "fds.txt"), "utf8")).toContain(" 1 -> ");
    expect(readFileSync(join(ws.root, "fds.txt"), "utf8")).not.toContain(pipe);
    expect(model.requests).toHaveLength(1);

    process.kill(launcherPid, "SIGKILL");

    expect(await processGoneWithin(engine.pid, 3000), JSON.stringify(childrenOf(engine.pid))).toBe(true);
    // A moment for a write already under way to land, then nothing more.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const ticksAtStop = sizeOf(ticks);
    await new Promise((resolve) => setTimeout(resolve, 2700));
    expect(sizeOf(ticks)).toBe(ticksAtStop);
    expect(groupMembers(command.pid)).toEqual([]);
    expect(processAlive(launcherPid)).toBe(false);
    expect(existsSync(join(ws.root, "late.txt"))).toBe(false);
    expect(model.requests).toHaveLength(1);
  });
});

describe.skipIf(!(oldNodeMajor < 22))("`lathe` as npm installs it, on a system whose Node is too old", () => {
  it("is the engine itself, on the newer Node, so kill -9 of its pid stops the run", async () => {
    // The system's old Node first on PATH, as on a machine that ships Node 20. Sandboxed: bubblewrap
    // ends the command with the engine (unsandboxed commands run in a process group of their own
    // and outlive an engine killed outright).
    const path = (process.env.PATH ?? "").split(":").filter((dir) => !dir.includes(".tools"));
    const { ws, pid, model } = await startTickingRun("auto", installedBin, [], {
      PATH: ["/usr/bin", ...path].join(":"),
    });
    const ticks = join(ws.root, "ticks.txt");
    await until(() => (sizeOf(ticks) >= 4 ? true : undefined), "the command to tick");
    // One process: the shell script became the engine, on the Node that setup installed.
    expect(readlinkSync(`/proc/${pid}/exe`)).toContain("/.tools/node/");
    expect(
      childrenOf(pid).filter((child) => readlinkSync(`/proc/${child.pid}/exe`).endsWith("/node")),
    ).toEqual([]);
    const command = await until(() => childrenOf(pid).find((p) => p.pgid === p.pid), "the command");
    leftovers.push(command.pid);

    process.kill(pid, "SIGKILL");

    expect(await processGoneWithin(pid, 3000)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const ticksAtStop = sizeOf(ticks);
    await new Promise((resolve) => setTimeout(resolve, 2700));
    expect(sizeOf(ticks)).toBe(ticksAtStop);
    expect(groupMembers(command.pid)).toEqual([]);
    expect(existsSync(join(ws.root, "late.txt"))).toBe(false);
    expect(model.requests).toHaveLength(1);
  });
});
