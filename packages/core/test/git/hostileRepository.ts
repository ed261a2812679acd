import { execFileSync } from "node:child_process";
import {
  appendFileSync,
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * Repositories whose config, attributes, hooks and environment each try to make git start a
 * program. Every program is the same harmless script: it creates a marker file named after what
 * started it, so "no marker" proves that nothing ran.
 */
export interface HostileFixture {
  base: string;
  /** A throwaway home directory for every process the test starts. */
  home: string;
  markers: string;
  /** A repository with the hostile settings in its own `.git/config` and hooks. */
  project: string;
  /** A repository whose `.git/commondir` redirects to `redirected`, which holds the hostile config. */
  commondirProject: string;
  redirected: string;
  /** A config file full of hostile settings, for variables that name a config file. */
  hostileConfigFile: string;
  /** The path of a script that leaves the marker `name` (and passes its input through). */
  payload(name: string): string;
  /** Variables a hostile caller (a git hook that started Lathe, say) could leave in the environment. */
  hostileVariables(): Record<string, string>;
  /** The names of the markers created so far. */
  markersFound(): string[];
  /** Plain git, as a user would run it, with the throwaway home. */
  git(args: string[], cwd: string, extraEnv?: Record<string, string>): string;
  cleanup(): void;
}

const identity = {
  GIT_AUTHOR_NAME: "Ada",
  GIT_AUTHOR_EMAIL: "ada@example.com",
  GIT_COMMITTER_NAME: "Ada",
  GIT_COMMITTER_EMAIL: "ada@example.com",
  GIT_AUTHOR_DATE: "2025-01-02T03:04:05Z",
  GIT_COMMITTER_DATE: "2025-01-02T03:04:05Z",
};

const hooks = [
  "pre-commit",
  "post-commit",
  "post-checkout",
  "post-index-change",
  "reference-transaction",
  "pre-auto-gc",
  "fsmonitor-watchman",
];

export function createHostileFixture(): HostileFixture {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), "lathe-hostile-git-")));
  const home = path.join(base, "home");
  const markers = path.join(base, "markers");
  for (const dir of [home, markers]) mkdirSync(dir);
  // Settings name a program without arguments: one script per marker.
  const payload = (name: string): string => {
    const named = path.join(base, `marker-${name}.sh`);
    writeFileSync(named, `#!/bin/sh\ntouch "${markers}/${name}"\ncat\n`);
    chmodSync(named, 0o755);
    return named;
  };

  const git = (args: string[], cwd: string, extraEnv: Record<string, string> = {}): string =>
    execFileSync("git", args, {
      cwd,
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, ...identity, ...extraEnv },
    });

  const hooksDir = path.join(base, "hooks");
  mkdirSync(hooksDir);
  for (const hook of hooks) {
    writeFileSync(path.join(hooksDir, hook), `#!/bin/sh\ntouch "${markers}/hook-${hook}"\n`);
    chmodSync(path.join(hooksDir, hook), 0o755);
  }
  const hostileConfig = (origin: string): string =>
    [
      "[core]",
      `\tfsmonitor = ${payload(`${origin}-fsmonitor`)}`,
      `\tpager = ${payload(`${origin}-pager`)}`,
      `\thooksPath = ${hooksDir}`,
      `\taskPass = ${payload(`${origin}-askpass`)}`,
      `\tsshCommand = ${payload(`${origin}-ssh`)}`,
      "[pager]",
      `\tstatus = ${payload(`${origin}-pager-status`)}`,
      `\tdiff = ${payload(`${origin}-pager-diff`)}`,
      `\tlog = ${payload(`${origin}-pager-log`)}`,
      `\tshow = ${payload(`${origin}-pager-show`)}`,
      "[diff]",
      `\texternal = ${payload(`${origin}-diff-external`)}`,
      '[diff "evil"]',
      `\ttextconv = ${payload(`${origin}-textconv`)}`,
      `\tcommand = ${payload(`${origin}-diff-command`)}`,
      '[filter "evil"]',
      `\tclean = ${payload(`${origin}-clean`)}`,
      `\tsmudge = ${payload(`${origin}-smudge`)}`,
      "\trequired = true",
      '[filter "a=b"]',
      `\tclean = ${payload(`${origin}-clean-odd-name`)}`,
      '[merge "evil"]',
      `\tdriver = ${payload(`${origin}-merge`)}`,
      "[log]",
      "\tshowSignature = true",
      "[gpg]",
      `\tprogram = ${payload(`${origin}-gpg`)}`,
      "[credential]",
      `\thelper = ${payload(`${origin}-credential`)}`,
      "[protocol]",
      "\tallow = always",
      "",
    ].join("\n");

  const attributes = "*.txt filter=evil diff=evil merge=evil\n*.md filter=a=b\n";
  const seeded = (dir: string, origin: string): void => {
    mkdirSync(dir);
    git(["init", "--quiet", "--initial-branch=main"], dir);
    writeFileSync(path.join(dir, ".gitattributes"), attributes);
    writeFileSync(path.join(dir, "a.txt"), "one\n");
    writeFileSync(path.join(dir, "notes.md"), "notes\n");
    git(["add", "."], dir);
    git(["commit", "--quiet", "-m", "First commit"], dir);
    writeFileSync(path.join(dir, "a.txt"), "one\ntwo\n");
    git(["commit", "--quiet", "-am", "Second commit"], dir);
    // Armed only now, so setting the repository up ran none of it.
    appendFileSync(path.join(dir, ".git", "config"), hostileConfig(origin));
    for (const hook of hooks) {
      writeFileSync(
        path.join(dir, ".git", "hooks", hook),
        `#!/bin/sh\ntouch "${markers}/${origin}-own-hook-${hook}"\n`,
      );
      chmodSync(path.join(dir, ".git", "hooks", hook), 0o755);
    }
  };

  const project = path.join(base, "project");
  seeded(project, "project");
  const redirected = path.join(base, "redirected");
  seeded(redirected, "commondir");
  const commondirProject = path.join(base, "commondir-project");
  mkdirSync(commondirProject);
  git(["init", "--quiet", "--initial-branch=main"], commondirProject);
  writeFileSync(path.join(commondirProject, ".git", "commondir"), `${path.join(redirected, ".git")}\n`);
  writeFileSync(path.join(commondirProject, ".gitattributes"), attributes);
  writeFileSync(path.join(commondirProject, "a.txt"), "one\ntwo\nthree\n");

  const hostileConfigFile = path.join(base, "hostile-global.gitconfig");
  writeFileSync(hostileConfigFile, hostileConfig("variable-config"));

  return {
    base,
    home,
    markers,
    project,
    commondirProject,
    redirected,
    hostileConfigFile,
    payload,
    hostileVariables: () => ({
      GIT_DIR: path.join(redirected, ".git"),
      GIT_WORK_TREE: redirected,
      GIT_INDEX_FILE: path.join(redirected, ".git", "index"),
      GIT_COMMON_DIR: path.join(redirected, ".git"),
      GIT_CONFIG_GLOBAL: hostileConfigFile,
      GIT_CONFIG_SYSTEM: hostileConfigFile,
      GIT_CONFIG: hostileConfigFile,
      GIT_CONFIG_COUNT: "1",
      GIT_CONFIG_KEY_0: "core.fsmonitor",
      GIT_CONFIG_VALUE_0: payload("variable-config-count"),
      GIT_CONFIG_PARAMETERS: `'core.fsmonitor'='${payload("variable-config-parameters")}'`,
      GIT_EXTERNAL_DIFF: payload("variable-external-diff"),
      GIT_PAGER: payload("variable-pager"),
      PAGER: payload("variable-plain-pager"),
      GIT_ASKPASS: payload("variable-askpass"),
      SSH_ASKPASS: payload("variable-ssh-askpass"),
      GIT_SSH_COMMAND: payload("variable-ssh-command"),
      GIT_EDITOR: payload("variable-editor"),
    }),
    markersFound: () => readdirSync(markers).sort(),
    git,
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}

/**
 * Sets `variables` (and HOME) in this process's environment for the duration of `run`, then
 * puts back exactly what was there: the runner reads the environment it inherits.
 */
export async function withEnvironment<T>(
  variables: Record<string, string>,
  run: () => Promise<T>,
): Promise<T> {
  const saved = new Map(Object.keys(variables).map((name) => [name, process.env[name]]));
  Object.assign(process.env, variables);
  try {
    return await run();
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}
