import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "vitest";
import {
  type CheckpointOutcome,
  openShadowRepository,
  type ShadowRepository,
  type ShadowRepositorySettings,
} from "../../src/checkpoint/index.js";

/** A temp project, `$LATHE_HOME` and home directory, with helpers to change files like tools do. */
export interface CheckpointTestBed {
  projectRoot: string;
  latheHome: string;
  homeDir: string;
  open(settings?: Partial<ShadowRepositorySettings>): Promise<ShadowRepository>;
  write(file: string, content: string | Buffer, mode?: number): void;
  read(file: string): Buffer;
  /** Runs a shell command in the project, as the shell tool would. */
  shell(command: string): void;
  /** Runs git in `cwd` with a clean environment and an identity, for the user's own repository. */
  git(args: string[], cwd?: string): string;
  cleanup(): void;
}

export function createCheckpointTestBed(): CheckpointTestBed {
  const base = mkdtempSync(path.join(tmpdir(), "lathe-checkpoints-"));
  const projectRoot = path.join(base, "project");
  const latheHome = path.join(base, "lathe-home");
  const homeDir = path.join(base, "home");
  for (const dir of [projectRoot, latheHome, homeDir]) mkdirSync(dir, { recursive: true });
  return {
    projectRoot,
    latheHome,
    homeDir,
    async open(settings = {}) {
      return expectOk(await openShadowRepository({ latheHome, projectRoot, homeDir, ...settings }));
    },
    write(file, content, mode) {
      const target = path.join(projectRoot, file);
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, content);
      if (mode !== undefined) chmodSync(target, mode);
    },
    read: (file) => readFileSync(path.join(projectRoot, file)),
    shell(command) {
      execFileSync("sh", ["-c", command], { cwd: projectRoot });
    },
    git(args, cwd = projectRoot) {
      const env = Object.fromEntries(
        Object.entries(process.env).filter(([name]) => !name.startsWith("GIT_")),
      );
      return execFileSync("git", ["-c", "user.name=User", "-c", "user.email=user@example.com", ...args], {
        cwd,
        // No optional locks: `git status` would otherwise refresh (rewrite) the index it is watched for.
        env: { ...env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", GIT_OPTIONAL_LOCKS: "0" },
        encoding: "utf8",
      });
    },
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}

export function expectOk<T>(outcome: CheckpointOutcome<T>): T {
  if (!outcome.ok) expect.fail(`${outcome.error.code}: ${outcome.error.message}`);
  return outcome.value;
}

/** The paths in a checkpoint's tree, read from the shadow repository. */
export function filesInCheckpoint(repository: ShadowRepository, commit: string): string[] {
  const listed = execFileSync(
    "git",
    ["--git-dir", repository.gitDir, "ls-tree", "-r", "-z", "--name-only", commit],
    {
      encoding: "utf8",
    },
  );
  return listed.split("\0").filter((file) => file !== "");
}
