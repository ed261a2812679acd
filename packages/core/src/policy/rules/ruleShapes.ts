/**
 * How far an "always" rule may reach beyond the command the user approved (SPEC §5). A rule names
 * the program and its action words, and a trailing `*` only where no further option or argument
 * can make the program run code the approved call did not already run. Anything not listed here
 * is saved exactly as approved: `find . -name x -delete` must not become `find . *`, which would
 * allow `find . -exec …`, and an unknown wrapper (`taskset 1 npm test`) must not become
 * `taskset 1 *`.
 */
export type RuleShape =
  /**
   * `ls *`: no option runs a program or writes a file; or `./scripts/check.sh *`: the program is
   * a project script, itself the code the user approved.
   */
  | { kind: "anyArguments" }
  /**
   * `git commit *`, `npm run build *`: the word after the program is an action listed here, with
   * that many more action words after it (the script name of `npm run`). Options before the
   * action (`git -c …`, `npm --prefix …`) are never generalised.
   */
  | { kind: "actions"; actions: ReadonlyMap<string, number> }
  /**
   * `bash scripts/build.sh *`, `node tools/gen.js *`: what follows the script goes to the script,
   * which is the code the user approved; options before the script are never generalised.
   */
  | { kind: "script" };

const anyArguments: RuleShape = { kind: "anyArguments" };
const script: RuleShape = { kind: "script" };

function actions(entries: Record<string, number>): RuleShape {
  return { kind: "actions", actions: new Map(Object.entries(entries)) };
}

/**
 * Test and build actions run the project's own code (package scripts, build.rs, tests), which the
 * model can edit anyway; options that change how they run (`--script-shell`, `--config`) add
 * nothing the approved action did not already allow. Left out on purpose: anything that installs
 * or fetches (`npm install`, `git fetch --upload-pack=…`), and actions with an option that runs
 * a program (`git grep -O`, `git rebase -x`, `git merge -s`, `git init --template`, `go build
 * -toolexec`, `go vet -vettool`).
 */
const scriptRunner = actions({ test: 0, t: 0, start: 0, run: 1, "run-script": 1 });
const directScriptRunner = actions({
  test: 0,
  start: 0,
  run: 1,
  build: 0,
  lint: 0,
  typecheck: 0,
  format: 0,
  dev: 0,
});

const shapes: ReadonlyMap<string, RuleShape> = new Map([
  ...[
    "ls",
    "cat",
    "head",
    "tail",
    "wc",
    "pwd",
    "echo",
    "grep",
    "egrep",
    "fgrep",
    "stat",
    "which",
    "uname",
    "date",
    "du",
    "df",
    "file",
    "basename",
    "dirname",
    "realpath",
    "readlink",
    "tree",
    "whoami",
    "id",
    "true",
    "false",
    "diff",
    "cmp",
    "cut",
    "tr",
    "nproc",
    "jq",
  ].map((name): [string, RuleShape] => [name, anyArguments]),
  [
    "git",
    actions({
      status: 0,
      add: 0,
      commit: 0,
      checkout: 0,
      switch: 0,
      restore: 0,
      stash: 0,
      branch: 0,
      tag: 0,
      rm: 0,
      mv: 0,
      reset: 0,
      "rev-parse": 0,
      "ls-files": 0,
      blame: 0,
      "cherry-pick": 0,
      revert: 0,
    }),
  ],
  ["npm", scriptRunner],
  ["pnpm", directScriptRunner],
  ["yarn", directScriptRunner],
  ["bun", actions({ test: 0, run: 1 })],
  ["cargo", actions({ build: 0, check: 0, test: 0, clippy: 0, fmt: 0, run: 0, bench: 0, doc: 0 })],
  ["go", actions({ test: 0, run: 0 })],
  ...["sh", "bash", "zsh", "dash", "ksh", "node", "python", "python3", "ruby", "perl", "php"].map(
    (name): [string, RuleShape] => [name, script],
  ),
]);

/**
 * The shape for a program as written; undefined: the rule is the approved command exactly. A
 * relative path down into the project names a project script; one with `..` may name anything.
 */
export function ruleShapeOf(program: string): RuleShape | undefined {
  const segments = program.split("/");
  if (program.startsWith("/")) return shapes.get(segments.at(-1) ?? "");
  if (segments.length === 1) return shapes.get(program);
  return segments.includes("..") ? undefined : anyArguments;
}
