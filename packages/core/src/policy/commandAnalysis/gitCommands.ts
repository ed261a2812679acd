import { hasOption, optionValues, parseArgs, spellsLong, splitSubcommand } from "./commandArgs.js";
import { judgeInlineShell } from "./interpreters.js";
import type { CommandJudge, JudgeContext } from "./judgeContext.js";
import type { StaticWord } from "./staticWords.js";
import { atLeast, combineVerdicts, type Verdict, verdict, withNetwork } from "./verdict.js";

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
      return rest.some((w) => spellsLong(w, "prune"))
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

function judgeConfig(rest: readonly StaticWord[], ctx: JudgeContext): Verdict {
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
  const key = keys.find((k) => commandKeys.test(k));
  const value = parsed.operands[1];
  if (key !== undefined && value !== undefined) return judgeConfigProgram(key, value, ctx);
  if (key !== undefined) return verdict("high", "git config sets a key that runs a program");
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
  return rest.some((w) => spellsLong(w, "output"));
}

export const judgeGit: CommandJudge = (args, ctx) => {
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
  const verdicts = [judgeSubcommand(sub, rest, ctx), ...judgeProgramOptions(sub, rest, ctx)];
  // `git -c key=value` can point a pager, fsmonitor or diff driver at any program.
  for (const setting of optionValues(before, "c", "config-env")) {
    verdicts.push(judgeConfigSetting(setting, ctx, "git -c"));
  }
  if (hasOption(before, "c", "config-env") && optionValues(before, "c", "config-env").length === 0) {
    verdicts.push(verdict("high", "git -c overrides configuration"));
  }
  return combineVerdicts(verdicts);
};

/**
 * `key=value` given to `git -c` or `git clone -c`: at least high (any key may make git run a
 * program), and a key whose value git runs is judged as that program.
 */
function judgeConfigSetting(setting: StaticWord, ctx: JudgeContext, what: string): Verdict {
  const floor = verdict("high", `${what} ${setting.value}: overrides configuration`);
  const eq = setting.value.indexOf("=");
  const key = eq === -1 ? setting.value : setting.value.slice(0, eq);
  if (eq === -1 || !commandKeys.test(key)) return floor;
  return combineVerdicts([
    floor,
    judgeConfigProgram(key, { ...setting, value: setting.value.slice(eq + 1) }, ctx),
  ]);
}

/** A configured program: aliases starting with `!` and the command keys run through the shell. */
function judgeConfigProgram(key: string, value: StaticWord, ctx: JudgeContext): Verdict {
  if (/^alias\./i.test(key) && !value.value.startsWith("!"))
    return verdict("high", `git ${key} defines an alias`);
  const script = { ...value, value: value.value.replace(/^!/, "") };
  return atLeast(judgeInlineShell(script, ctx, `git ${key}`), "high", `git ${key} runs a program`);
}

/** Subcommand options whose value git runs as a program. */
const programOptions = ["upload-pack", "receive-pack", "exec", "extcmd", "open-files-in-pager", "tool"];

/**
 * Options that make a subcommand run a program: `grep -O CMD`, `rebase -x CMD`, `clone -u CMD`,
 * `difftool -x CMD`, `--upload-pack`…, `clone -c key=value`; `bisect run CMD` and `submodule
 * foreach CMD` run their words. Each is at least high and judged as the program it runs.
 */
function judgeProgramOptions(sub: string, rest: readonly StaticWord[], ctx: JudgeContext): Verdict[] {
  const verdicts: Verdict[] = [];
  for (let i = 0; i < rest.length; i++) {
    const w = rest[i];
    if (w === undefined) break;
    if (w.value === "--") break;
    const long = programOptions.find(
      (o) => spellsLong(w, o) && !(o === "tool" && sub !== "difftool" && sub !== "mergetool"),
    );
    const short =
      (sub === "grep" && /^-O/.test(w.value)) ||
      ((sub === "rebase" || sub === "difftool") && w.value === "-x") ||
      ((sub === "clone" || sub === "fetch" || sub === "pull") && w.value === "-u");
    const config = sub === "clone" && (w.value === "-c" || spellsLong(w, "config"));
    if (!long && !short && !config) continue;
    const attached = w.value.startsWith("--")
      ? w.value.includes("=")
        ? w.value.slice(w.value.indexOf("=") + 1)
        : undefined
      : w.value.length > 2
        ? w.value.slice(2)
        : undefined;
    // `--open-files-in-pager` and `-O` take their program only attached; the others take the next word.
    const optionalValue = long === "open-files-in-pager" || (sub === "grep" && w.value.startsWith("-O"));
    const next = attached === undefined && !optionalValue ? rest[i + 1] : undefined;
    if (next !== undefined) i++;
    const value = attached !== undefined ? { ...w, value: attached } : next;
    if (config) {
      verdicts.push(value ? judgeConfigSetting(value, ctx, "git clone -c") : verdict("high", "git clone -c"));
      continue;
    }
    verdicts.push(
      value === undefined
        ? verdict("high", `git ${sub} ${w.value} runs a program`)
        : atLeast(
            judgeInlineShell(value, ctx, `git ${sub} ${w.value}`),
            "high",
            `git ${sub} ${w.value} runs a program`,
          ),
    );
  }
  const action = rest[0];
  if ((sub === "bisect" && action?.value === "run") || (sub === "submodule" && action?.value === "foreach")) {
    const words = rest.slice(1).filter((w, i) => !(i === 0 && w.value === "--recursive"));
    const script = {
      value: words.map((w) => w.value).join(" "),
      dynamic: words.some((w) => w.dynamic),
      fromDownload: words.some((w) => w.fromDownload),
    };
    const inner =
      sub === "bisect"
        ? ctx.judgeArgv(words).verdict
        : judgeInlineShell(script, ctx, `git submodule foreach`);
    verdicts.push(atLeast(inner, "high", `git ${sub} ${action?.value} runs a command`));
  }
  return verdicts;
}

function judgeSubcommand(sub: string, rest: readonly StaticWord[], ctx: JudgeContext): Verdict {
  const networkVerdict = network[sub];
  if (networkVerdict) {
    const forced =
      sub === "push" &&
      rest.some(
        (w) =>
          /^(-f|-d|\+.*)$/.test(w.value) ||
          ["force", "force-with-lease", "mirror", "delete"].some((o) => spellsLong(w, o)),
      );
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
  if (sub === "config") return judgeConfig(rest, ctx);
  if (sub === "branch") return judgeBranch(rest);
  if (sub === "remote") return judgeRemote(rest);
  const special = judgeTagOrStash(sub, rest);
  if (special) return special;
  if (sub === "archive" && rest.some((w) => spellsLong(w, "remote"))) {
    return withNetwork(verdict("medium", "git archive --remote downloads"));
  }
  return verdict("medium", `git ${sub} changes the repository`);
}
