import { hasOption, parseArgs, splitSubcommand } from "./commandArgs.js";
import type { CommandJudge } from "./judgeContext.js";
import type { StaticWord } from "./staticWords.js";
import { type Verdict, verdict, withNetwork } from "./verdict.js";

/**
 * git subcommands that only read the repository. They are low, not safe: SPEC §5 calls git read
 * commands safe only inside the sandbox (a repository's own config can run programs — pagers,
 * diff drivers, fsmonitor — and the sandbox is what contains those). Low still runs without a
 * prompt in the default ask_first mode; the sandbox, when present, does the containing.
 */
const readers = new Set([
  "status",
  "log",
  "diff",
  "show",
  "rev-parse",
  "ls-files",
  "ls-tree",
  "blame",
  "annotate",
  "describe",
  "shortlog",
  "cat-file",
  "grep",
  "whatchanged",
  "name-rev",
  "merge-base",
  "count-objects",
  "rev-list",
  "show-ref",
  "show-branch",
  "for-each-ref",
  "cherry",
  "range-diff",
  "check-ignore",
  "check-attr",
  "var",
  "help",
  "version",
]);

/** Subcommands that talk to a remote. */
const network: Readonly<Record<string, Verdict>> = {
  fetch: verdict("medium", "git fetch downloads from a remote"),
  pull: verdict("medium", "git pull downloads and merges from a remote"),
  clone: verdict("medium", "git clone downloads a repository"),
  "ls-remote": verdict("low", "git ls-remote lists a remote's refs", true),
  push: verdict("high", "git push publishes commits to a remote"),
  "send-email": verdict("high", "git send-email sends mail"),
  "request-pull": verdict("low", "git request-pull summarises changes", true),
};

/** Local subcommands that throw away work that may exist nowhere else. */
function discardsWork(sub: string, rest: readonly StaticWord[]): string | undefined {
  const parsed = parseArgs(rest);
  const words = rest.map((w) => w.value);
  switch (sub) {
    case "reset":
      return hasOption(parsed, undefined, "hard")
        ? "git reset --hard discards uncommitted changes"
        : undefined;
    case "clean":
      return hasOption(parsed, "f", "force") ? "git clean -f deletes untracked files" : undefined;
    case "checkout":
      return words.includes("--") || words.includes(".") || hasOption(parsed, "f", "force")
        ? "git checkout of paths discards uncommitted changes"
        : undefined;
    case "restore":
      return hasOption(parsed, "S", "staged") && !hasOption(parsed, "W", "worktree")
        ? undefined
        : "git restore discards uncommitted changes";
    case "stash":
      return words[0] === "drop" || words[0] === "clear"
        ? `git stash ${words[0]} deletes stashed work`
        : undefined;
    case "branch":
      return hasOption(parsed, "D") || (hasOption(parsed, "d", "delete") && hasOption(parsed, "f", "force"))
        ? "git branch -D deletes an unmerged branch"
        : undefined;
    case "reflog":
      return words[0] === "expire" || words[0] === "delete"
        ? "git reflog expire drops recovery points"
        : undefined;
    case "gc":
      return words.some((w) => w.startsWith("--prune"))
        ? "git gc --prune drops unreachable commits"
        : undefined;
    case "filter-branch":
    case "filter-repo":
      return `git ${sub} rewrites history`;
    case "update-ref":
      return hasOption(parsed, "d") ? "git update-ref -d deletes a ref" : undefined;
    default:
      return undefined;
  }
}

/** Config keys whose values git later runs as programs. */
const commandKeys =
  /^(core\.(hookspath|fsmonitor|sshcommand|editor|pager|askpass)|alias\.|.*\.(textconv|command|clean|smudge|process)$|credential\.)/i;

function judgeConfig(rest: readonly StaticWord[]): Verdict {
  const parsed = parseArgs(rest, { shortWithValue: "f", longWithValue: ["file", "blob", "type", "default"] });
  const readFlags = [
    "get",
    "get-all",
    "get-regexp",
    "get-urlmatch",
    "list",
    "show-origin",
    "show-scope",
    "name-only",
  ];
  if (hasOption(parsed, "l") || parsed.options.some((o) => o.long && readFlags.includes(o.name))) {
    return verdict("low", "git config only reads", true);
  }
  const subcommand = parsed.operands[0]?.value;
  if (subcommand === "get" || subcommand === "list") return verdict("low", "git config only reads", true);
  const keys = parsed.operands.filter((w) => !w.dynamic).map((w) => w.value);
  if (parsed.operands.length <= 1 && !hasOption(parsed, undefined, "unset")) {
    return verdict("low", "git config only reads", true);
  }
  if (keys.some((key) => commandKeys.test(key)))
    return verdict("high", "git config sets a key that runs a program");
  if (hasOption(parsed, undefined, "global") || hasOption(parsed, undefined, "system")) {
    return verdict("high", "git config changes configuration outside the project");
  }
  return verdict("medium", "git config changes the repository's configuration");
}

function judgeBranch(rest: readonly StaticWord[]): Verdict {
  const parsed = parseArgs(rest, {
    longWithValue: ["contains", "merged", "no-merged", "points-at", "sort", "format", "set-upstream-to"],
  });
  const writes = parsed.options.some((o) =>
    o.long
      ? ["delete", "move", "copy", "set-upstream-to", "unset-upstream", "edit-description", "track"].some(
          (n) => n.startsWith(o.name) && o.name.length >= 3,
        )
      : "dDmMcCfu".includes(o.name),
  );
  const listing =
    hasOption(parsed, "l", "list") ||
    parsed.options.some((o) => o.long && ["contains", "merged", "no-merged", "points-at"].includes(o.name));
  if (writes || (parsed.operands.length > 0 && !listing))
    return verdict("medium", "git branch changes branches");
  return verdict("low", "git branch lists branches", true);
}

function judgeRemote(rest: readonly StaticWord[]): Verdict {
  const sub = rest.find((w) => !w.value.startsWith("-"))?.value;
  if (sub === undefined || sub === "get-url") return verdict("low", "git remote lists remotes", true);
  if (sub === "show" || sub === "update" || sub === "prune") {
    return withNetwork(verdict("medium", `git remote ${sub} contacts the remote`));
  }
  return verdict("medium", `git remote ${sub} changes remotes`);
}

function judgeTagOrStash(sub: string, rest: readonly StaticWord[]): Verdict | undefined {
  const first = rest[0]?.value;
  if (sub === "tag" && (rest.length === 0 || first === "-l" || first === "--list" || first === "-n")) {
    return verdict("low", "git tag lists tags", true);
  }
  if (sub === "stash" && (first === "list" || first === "show"))
    return verdict("low", "git stash list only reads", true);
  if (sub === "worktree" && first === "list") return verdict("low", "git worktree list only reads", true);
  if (sub === "reflog" && (first === undefined || first === "show"))
    return verdict("low", "git reflog only reads", true);
  if (sub === "submodule" && (first === undefined || first === "status" || first === "summary")) {
    return verdict("low", "git submodule status only reads", true);
  }
  if (sub === "submodule" && first === "update")
    return withNetwork(verdict("medium", "git submodule update downloads submodules"));
  if (sub === "lfs" && (first === "pull" || first === "fetch" || first === "push")) {
    return withNetwork(verdict(first === "push" ? "high" : "medium", `git lfs ${first} talks to the remote`));
  }
  return undefined;
}

/** Options that write a file instead of printing (`git diff --output=x`). */
function writesOutputFile(rest: readonly StaticWord[]): boolean {
  return rest.some((w) => w.value === "--output" || w.value.startsWith("--output="));
}

export const judgeGit: CommandJudge = (args) => {
  const {
    name: sub,
    before,
    rest,
  } = splitSubcommand(args, {
    shortWithValue: "Cc",
    longWithValue: ["git-dir", "work-tree", "namespace", "exec-path", "config-env", "super-prefix"],
  });
  if (sub === undefined) {
    if (hasOption(before, undefined, "version") || hasOption(before, "h", "help"))
      return verdict("safe", "git --version", true);
    return verdict("medium", "git with a subcommand computed at run time");
  }
  // `git -c key=value` can point a pager, fsmonitor or diff driver at any program.
  if (hasOption(before, "c", "config-env")) return verdict("medium", "git -c overrides configuration");
  return judgeSubcommand(sub, rest);
};

function judgeSubcommand(sub: string, rest: readonly StaticWord[]): Verdict {
  const networkVerdict = network[sub];
  if (networkVerdict) {
    const forced =
      sub === "push" && rest.some((w) => /^(-f|--force.*|--mirror|--delete|-d|\+.*)$/.test(w.value));
    return withNetwork(
      forced ? verdict("high", "git push rewrites or deletes remote history") : networkVerdict,
    );
  }
  const discards = discardsWork(sub, rest);
  if (discards) return verdict("high", discards);
  if (readers.has(sub)) {
    return writesOutputFile(rest)
      ? verdict("medium", `git ${sub} --output writes a file`)
      : verdict("low", `git ${sub} only reads`, true);
  }
  if (sub === "config") return judgeConfig(rest);
  if (sub === "branch") return judgeBranch(rest);
  if (sub === "remote") return judgeRemote(rest);
  const special = judgeTagOrStash(sub, rest);
  if (special) return special;
  if (sub === "archive" && rest.some((w) => w.value.startsWith("--remote"))) {
    return withNetwork(verdict("medium", "git archive --remote downloads"));
  }
  return verdict("medium", `git ${sub} changes the repository`);
}
