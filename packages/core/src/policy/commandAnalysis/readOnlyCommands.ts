import { hasOption, optionValues, parseArgs, spellsLong, staticWord } from "./commandArgs.js";
import { judgeWriteTarget } from "./fileWriters.js";
import { judgeFind } from "./findCommand.js";
import { judgeInlineShell } from "./interpreters.js";
import type { CommandJudge } from "./judgeContext.js";
import { sedScriptIsReadOnly } from "./sedScript.js";
import type { StaticWord } from "./staticWords.js";
import { atLeast, combineVerdicts, safeReadOnly, verdict } from "./verdict.js";

/** Commands that only read files or print, whatever their arguments. */
const plainReaders = [
  "ls",
  "dir",
  "vdir",
  "cat",
  "head",
  "tail",
  "less",
  "more",
  "wc",
  "pwd",
  "echo",
  "printf",
  "grep",
  "egrep",
  "fgrep",
  "zgrep",
  "ag",
  "ack",
  "stat",
  "which",
  "whereis",
  "whoami",
  "uname",
  "file",
  "du",
  "df",
  "cut",
  "tr",
  "diff",
  "cmp",
  "comm",
  "join",
  "paste",
  "basename",
  "dirname",
  "realpath",
  "readlink",
  "true",
  "false",
  ":",
  "test",
  "[",
  "nl",
  "od",
  "hexdump",
  "strings",
  "jq",
  "type",
  "tac",
  "rev",
  "fold",
  "fmt",
  "expand",
  "unexpand",
  "column",
  "seq",
  "sleep",
  "id",
  "groups",
  "printenv",
  "nproc",
  "arch",
  "locale",
  "uptime",
  "free",
  "ps",
  "tty",
  "getconf",
  "lsb_release",
  "md5sum",
  "sha1sum",
  "sha224sum",
  "sha256sum",
  "sha384sum",
  "sha512sum",
  "b2sum",
  "cksum",
  "sum",
  "numfmt",
  "expr",
  "tokei",
  "cloc",
  "info",
  "help",
];

/**
 * Shell builtins that only change the shell's own state (directory, variables, options); the
 * commands run afterwards are judged on their own, with `cd` followed.
 */
const shellStateBuiltins = [
  "cd",
  "pushd",
  "popd",
  "dirs",
  "export",
  "unset",
  "set",
  "shopt",
  "unalias",
  "declare",
  "local",
  "readonly",
  "typeset",
  "read",
  "shift",
  "wait",
  "exit",
  "return",
  "break",
  "continue",
  "umask",
  "ulimit",
  "history",
  "jobs",
  "hash",
  "getopts",
];

const judgeSed: CommandJudge = (args) => {
  const parsed = parseArgs(args, {
    shortWithValue: "efl",
    longWithValue: ["expression", "file", "line-length"],
  });
  if (hasOption(parsed, "iI", "in-place")) {
    return verdict("medium", "sed -i edits files in place");
  }
  if (optionValues(parsed, "f", "file").length > 0) return verdict("medium", "sed runs a script file");
  const scripts = optionValues(parsed, "e", "expression");
  if (scripts.length === 0 && parsed.operands[0]) scripts.push(parsed.operands[0]);
  for (const script of scripts) {
    if (script.dynamic) return verdict("medium", "sed runs a script computed at run time");
    if (!sedScriptIsReadOnly(script.value))
      return verdict("medium", "the sed script writes files or runs commands");
  }
  return safeReadOnly("sed only prints");
};

/**
 * awk can write files and run commands from inside its program, so only programs with none of
 * the constructs that could (system, getline, pipes, `>`, gawk's @load) are safe. This is a test
 * on awk program text, deliberately over-cautious: `$3 > 5` also counts as a possible write.
 */
const judgeAwk: CommandJudge = (args, _ctx, name) => {
  const parsed = parseArgs(args, {
    shortWithValue: "Fvfeil",
    longWithValue: ["field-separator", "assign", "file", "source", "include", "load"],
  });
  if (optionValues(parsed, "fil", "file").length > 0 || hasOption(parsed, undefined, "include")) {
    return verdict("medium", `${name} runs a program file`);
  }
  const program = optionValues(parsed, "e", "source")[0] ?? parsed.operands[0];
  if (program === undefined || program.dynamic)
    return verdict("medium", `${name} runs a program we cannot read`);
  if (/system|getline|[|>]|close|fflush|@/.test(program.value)) {
    return verdict("medium", `${name} program may write files or run commands`);
  }
  return safeReadOnly(`${name} only prints`);
};

const judgeSort: CommandJudge = (args, ctx) => {
  const parsed = parseArgs(args, {
    shortWithValue: "otkST",
    longWithValue: [
      "output",
      "field-separator",
      "key",
      "buffer-size",
      "temporary-directory",
      "compress-program",
    ],
  });
  if (hasOption(parsed, undefined, "compress-program"))
    return verdict("medium", "sort runs a compress program");
  const output = optionValues(parsed, "o", "output")[0];
  return output ? judgeWriteTarget(output, ctx, "sort -o writes to") : safeReadOnly("sort only prints");
};

/** `uniq IN OUT` and `xxd IN OUT` write their second operand. */
const judgeSecondOperandWrites: CommandJudge = (args, ctx, name) => {
  const parsed = parseArgs(args, {
    shortWithValue: name === "uniq" ? "fsw" : "cglso",
    longWithValue: ["skip-fields", "skip-chars", "check-chars"],
  });
  const output = parsed.operands[1];
  return output ? judgeWriteTarget(output, ctx, `${name} writes to`) : safeReadOnly(`${name} only prints`);
};

const judgeTree: CommandJudge = (args, ctx) => {
  const parsed = parseArgs(args, {
    shortWithValue: "LPIHToS",
    longWithValue: ["filelimit", "timefmt", "charset"],
  });
  const output = optionValues(parsed, "o", undefined)[0];
  if (output) return judgeWriteTarget(output, ctx, "tree -o writes to");
  return hasOption(parsed, "R")
    ? verdict("medium", "tree -R writes HTML files")
    : safeReadOnly("tree only lists");
};

const judgeDate: CommandJudge = (args) => {
  const parsed = parseArgs(args, { shortWithValue: "dfrI", longWithValue: ["date", "file", "reference"] });
  const setsClock =
    hasOption(parsed, "s", "set") || parsed.operands.some((w) => w.dynamic || !w.value.startsWith("+"));
  return setsClock ? verdict("medium", "date sets the clock") : safeReadOnly("date only prints");
};

const judgeHostname: CommandJudge = (args) => {
  const parsed = parseArgs(args);
  return parsed.operands.length > 0 || hasOption(parsed, "bF", "file")
    ? verdict("medium", "hostname sets the host name")
    : safeReadOnly("hostname only prints");
};

/**
 * `rg --pre CMD` runs CMD on every file searched and `--hostname-bin CMD` runs CMD once: both are
 * judged as the command they name, and at least high.
 */
const judgeRg: CommandJudge = (args, ctx) => {
  const parsed = parseArgs(args, {
    shortWithValue: "eEfgjmMABCtT",
    longWithValue: ["pre", "hostname-bin", "regexp", "file", "glob", "type", "pre-glob", "max-count"],
  });
  const programs = [
    ...optionValues(parsed, undefined, "pre"),
    ...optionValues(parsed, undefined, "hostname-bin"),
  ];
  if (programs.length === 0) {
    return hasOption(parsed, undefined, "pre") || hasOption(parsed, undefined, "hostname-bin")
      ? verdict("high", "rg runs a program")
      : safeReadOnly("rg only searches");
  }
  return combineVerdicts(
    programs.map((program) =>
      atLeast(ctx.judgeArgv([program, staticWord(".")]).verdict, "high", `rg runs ${program.value}`),
    ),
  );
};

/**
 * man starts a pager (`-P`, `--pager`, `$MANPAGER`) or a browser (`-H`, `--html`) through the
 * shell: a given one is judged as the script it is, and at least high.
 */
const judgeMan: CommandJudge = (args, ctx) => {
  const parsed = parseArgs(args, {
    shortWithValue: "PpCMSemLr",
    longWithValue: ["pager", "preprocessor", "config-file", "manpath", "sections", "extension", "prompt"],
  });
  const programs = [
    ...optionValues(parsed, "P", "pager"),
    ...optionValues(parsed, undefined, "html"),
    // `-H` takes its browser only attached (`-Hfirefox`).
    ...args
      .filter((w) => !w.dynamic && /^-H./.test(w.value))
      .map((w): StaticWord => ({ ...w, value: w.value.slice(2) })),
  ];
  const browser = hasOption(parsed, "H", "html");
  if (programs.length === 0) {
    return browser ? verdict("high", "man starts a browser") : safeReadOnly("man only reads");
  }
  return combineVerdicts(
    programs.map((program) =>
      atLeast(judgeInlineShell(program, ctx, "man's pager"), "high", "man runs a pager program it is given"),
    ),
  );
};

/** fd's `-x`/`-X` run a command per match; it is judged with `{}` standing for `.`. */
const judgeFd: CommandJudge = (args, ctx) => {
  const at = args.findIndex(
    (w) =>
      (!w.dynamic && (w.value === "-x" || w.value === "-X")) ||
      spellsLong(w, "exec") ||
      spellsLong(w, "exec-batch"),
  );
  if (at === -1) return safeReadOnly("fd only lists files");
  const inner = args
    .slice(at + 1)
    .map((w) => (w.dynamic ? w : { ...w, value: w.value.replaceAll("{}", ".") }));
  return atLeast(ctx.judgeArgv(inner).verdict, "medium", "fd runs a command on each match");
};

const judgeBase64: CommandJudge = (args, ctx) => {
  const output = optionValues(
    parseArgs(args, { shortWithValue: "iow", longWithValue: ["input", "output", "wrap"] }),
    "o",
    "output",
  )[0];
  return output ? judgeWriteTarget(output, ctx, "base64 -o writes to") : safeReadOnly("base64 only prints");
};

/** `env` and `command -v` without a command to run are handled with the wrappers. */
export const readOnlyJudges: Readonly<Record<string, CommandJudge>> = {
  ...Object.fromEntries(
    plainReaders.map((name): [string, CommandJudge] => [name, () => safeReadOnly(`${name} only reads`)]),
  ),
  ...Object.fromEntries(
    shellStateBuiltins.map((name): [string, CommandJudge] => [
      name,
      () => safeReadOnly(`${name} only changes shell state`),
    ]),
  ),
  find: judgeFind,
  sed: judgeSed,
  awk: judgeAwk,
  gawk: judgeAwk,
  mawk: judgeAwk,
  nawk: judgeAwk,
  sort: judgeSort,
  uniq: judgeSecondOperandWrites,
  xxd: judgeSecondOperandWrites,
  tree: judgeTree,
  date: judgeDate,
  hostname: judgeHostname,
  rg: judgeRg,
  man: judgeMan,
  fd: judgeFd,
  fdfind: judgeFd,
  base64: judgeBase64,
};
