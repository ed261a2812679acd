import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { detectSandbox, findOnPath, probeSandbox } from "../../src/policy/sandbox/detectSandbox.js";
import { sandboxArgv } from "../../src/policy/sandbox/sandboxArgv.js";

let base: string;
let project: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), "lathe-sandbox-argv-")));
  project = path.join(base, "project");
  mkdirSync(project);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const launch = (overrides: { network?: boolean; writableRoots?: string[] } = {}) => ({
  bwrapPath: "/usr/bin/bwrap",
  projectRoot: project,
  tempDir: "/var/tmp/session-1",
  network: false,
  command: "npm test",
  ...overrides,
});

/** Position of `words` as consecutive arguments, -1 when absent. */
function indexOfRun(argv: string[], ...words: string[]): number {
  return argv.findIndex((_, start) => words.every((word, offset) => argv[start + offset] === word));
}

describe("sandboxArgv", () => {
  it("mounts the system read-only, the project and a private /tmp writable, and runs bash -c last", () => {
    const argv = sandboxArgv(launch());
    expect(argv[0]).toBe("/usr/bin/bwrap");
    for (const run of [
      ["--die-with-parent"],
      ["--new-session"],
      ["--unshare-pid"],
      ["--unshare-net"],
      ["--cap-drop", "ALL"],
      ["--ro-bind", "/", "/"],
      ["--dev", "/dev"],
      ["--proc", "/proc"],
      ["--bind", "/var/tmp/session-1", "/tmp"],
      ["--bind", project, project],
      ["--setenv", "TMPDIR", "/tmp"],
      ["--chdir", project],
    ]) {
      expect(indexOfRun(argv, ...run), run.join(" ")).toBeGreaterThan(0);
    }
    expect(argv.slice(-4)).toEqual(["--", "bash", "-c", "npm test"]);
    // Later mounts cover earlier ones: the system first, then /tmp, then the project on top.
    const order = [
      indexOfRun(argv, "--ro-bind", "/", "/"),
      indexOfRun(argv, "--bind", "/var/tmp/session-1", "/tmp"),
      indexOfRun(argv, "--bind", project, project),
    ];
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it("keeps the host network only when allowed", () => {
    expect(sandboxArgv(launch({ network: true }))).not.toContain("--unshare-net");
  });

  it("binds the extra writable roots that exist, once each, and starts in the given directory", () => {
    const shared = path.join(base, "shared");
    mkdirSync(shared);
    const argv = sandboxArgv({
      ...launch({ writableRoots: [shared, shared, project, path.join(base, "missing")] }),
      cwd: path.join(project, "src"),
    });
    expect(argv.filter((word) => word === shared)).toHaveLength(2);
    expect(argv.join(" ")).not.toContain("missing");
    expect(indexOfRun(argv, "--bind", project, project)).toBe(argv.indexOf(project) - 1);
    expect(indexOfRun(argv, "--chdir", path.join(project, "src"))).toBeGreaterThan(0);
  });

  it("pins .git and its submodules' git dirs and keeps their metadata read-only", () => {
    const git = path.join(project, ".git");
    const module = path.join(git, "modules", "libs", "ui");
    mkdirSync(path.join(git, "hooks"), { recursive: true });
    mkdirSync(path.join(git, "info"), { recursive: true });
    writeFileSync(path.join(git, "config"), "[core]\n");
    writeFileSync(path.join(git, "commondir"), "../main/.git\n");
    mkdirSync(module, { recursive: true });
    writeFileSync(path.join(module, "HEAD"), "ref: refs/heads/main\n");
    writeFileSync(path.join(module, "config"), "[core]\n");
    const argv = sandboxArgv(launch());
    const readOnly = (target: string) => ["--ro-bind", target, target];
    const standIn = (target: string) => ["--tmpfs", target, "--remount-ro", target];
    for (const run of [
      ["--bind", git, git],
      readOnly(path.join(git, "hooks")),
      readOnly(path.join(git, "info")),
      // No worktrees yet: an empty read-only one stands in, so none can be planted.
      standIn(path.join(git, "worktrees")),
      readOnly(path.join(git, "config")),
      readOnly(path.join(git, "commondir")),
      ["--bind", module, module],
      // The submodule has no hooks directory: an empty read-only one stands in for it.
      standIn(path.join(module, "hooks")),
      readOnly(path.join(module, "config")),
    ]) {
      expect(indexOfRun(argv, ...run), run.join(" ")).toBeGreaterThan(
        indexOfRun(argv, "--bind", project, project),
      );
    }
    // A missing file cannot be stood in for without breaking git on the host.
    expect(argv).not.toContain(path.join(git, "config.worktree"));
    expect(argv).not.toContain(path.join(module, "commondir"));
  });

  it("keeps a .git file (a worktree or submodule checkout) read-only", () => {
    const git = path.join(project, ".git");
    writeFileSync(git, "gitdir: /elsewhere\n");
    const argv = sandboxArgv(launch());
    expect(indexOfRun(argv, "--ro-bind", git, git)).toBeGreaterThan(
      indexOfRun(argv, "--bind", project, project),
    );
    expect(argv.filter((word) => word.includes(".git"))).toEqual([git, git]);
  });

  it("keeps .lathe and .cursor read-only whole, standing in for missing ones, and root shell files", () => {
    const lathe = path.join(project, ".lathe");
    const cursor = path.join(project, ".cursor");
    mkdirSync(lathe);
    writeFileSync(path.join(project, ".bashrc"), "# rc\n");
    const argv = sandboxArgv(launch());
    const projectBind = indexOfRun(argv, "--bind", project, project);
    for (const run of [
      ["--ro-bind", lathe, lathe],
      ["--tmpfs", cursor, "--remount-ro", cursor],
      ["--ro-bind", path.join(project, ".bashrc"), path.join(project, ".bashrc")],
    ]) {
      expect(indexOfRun(argv, ...run), run.join(" ")).toBeGreaterThan(projectBind);
    }
    // A missing start-up file is not stood in for: an empty .profile would change what a login shell reads.
    expect(argv).not.toContain(path.join(project, ".profile"));
    expect(indexOfRun(argv, "--chdir", project)).toBeGreaterThan(indexOfRun(argv, "--ro-bind", lathe, lathe));
  });
});

describe("detecting the sandbox", () => {
  function fakeBwrap(script: string): string {
    const file = path.join(base, "fake-bwrap");
    writeFileSync(file, `#!/bin/sh\n${script}\n`);
    chmodSync(file, 0o755);
    return file;
  }

  it("reports bwrap that cannot run as unavailable, with its own words as the reason", async () => {
    const bwrap = fakeBwrap('echo "bwrap: setting up uid map: Permission denied" >&2; exit 1');
    expect(await probeSandbox(bwrap)).toEqual({
      available: false,
      reason:
        "bubblewrap is installed but cannot sandbox here (bwrap: setting up uid map: Permission denied)",
    });
  });

  it("reports a bwrap that runs the command without isolating it as unavailable", async () => {
    // Ignores every option and runs what follows `--`, as a bwrap with no effect would.
    const bwrap = fakeBwrap('while [ "$1" != "--" ]; do shift; done; shift; exec "$@"');
    expect(await probeSandbox(bwrap)).toEqual({
      available: false,
      reason: "bubblewrap runs here but does not keep the file system read-only",
    });
  });

  it("finds executables on PATH only, as absolute paths", () => {
    const bin = path.join(base, "bin");
    mkdirSync(bin);
    writeFileSync(path.join(bin, "tool"), "#!/bin/sh\n");
    chmodSync(path.join(bin, "tool"), 0o755);
    writeFileSync(path.join(bin, "plain"), "not executable");
    expect(findOnPath("tool", `relative/bin${path.delimiter}${bin}`)).toBe(path.join(bin, "tool"));
    expect(findOnPath("plain", bin)).toBeUndefined();
    expect(findOnPath("tool", "")).toBeUndefined();
  });

  it("probes once per process", async () => {
    const first = detectSandbox();
    expect(detectSandbox()).toBe(first);
    // Awaited so the probe cleans up its directory before the worker exits.
    expect((await first).available).toBeTypeOf("boolean");
  });
});
