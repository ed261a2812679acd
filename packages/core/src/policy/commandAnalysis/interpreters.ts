import { judgeLet } from "./codeEvaluation.js";
import { splitSubcommand } from "./commandArgs.js";
import type { CommandJudge, JudgeContext } from "./judgeContext.js";
import { judgePip } from "./packageManagers.js";
import type { StageOutput } from "./stageOutput.js";
import type { StaticWord } from "./staticWords.js";
import {
  atLeast,
  blocked,
  combineVerdicts,
  explainedBy,
  projectCode,
  safeReadOnly,
  type Verdict,
  verdict,
  withNetwork,
} from "./verdict.js";

/**
 * A shell or interpreter that reads its program from stdin: downloaded content is blocked
 * (`curl … | sh`), a static script (heredoc, here-string, `echo … |`) is judged in full.
 */
function judgeProgramOnStdin(ctx: JudgeContext, name: string, isShell: boolean): Verdict {
  const stdin = ctx.stdin;
  if (stdin.downloads) return blocked(`downloaded content is piped into ${name}`);
  if (stdin.from === "process") return judgeProducedProgram(stdin, ctx, name, isShell);
  if (stdin.text !== undefined) {
    return isShell
      ? explainedBy(ctx.judgeScript(stdin.text), `${name} reads a script`)
      : verdict("high", `${name} runs code from stdin`);
  }
  switch (stdin.from) {
    case "file":
      return projectCode(`${name} runs a script file`);
    case "pipe":
      return verdict("high", `${name} runs a program read from a pipe`);
    case "heredoc":
      return verdict("high", `${name} runs a heredoc with expansions`);
    case "terminal":
      return verdict("medium", `${name} starts an interactive session`);
  }
}

/**
 * A program that commands write into a process substitution (`bash <(…)`, `sh < <(…)`, `source
 * <(…)`): at least high, and a static one is judged in full.
 */
function judgeProducedProgram(
  produced: StageOutput,
  ctx: JudgeContext,
  name: string,
  isShell: boolean,
): Verdict {
  if (produced.downloads) return blocked(`${name} runs downloaded content`);
  const floor = `${name} runs a program written by other commands`;
  if (produced.text === undefined || !isShell) return verdict("high", floor);
  return atLeast(explainedBy(ctx.judgeScript(produced.text), `${name} reads a script`), "high", floor);
}

/** An inline program given as a word (`bash -c WORD`, `eval WORDS`, `su -c WORD`). */
export function judgeInlineShell(script: StaticWord | undefined, ctx: JudgeContext, what: string): Verdict {
  if (script === undefined) return verdict("high", `${what} without a script`);
  if (script.fromDownload) return blocked(`${what} runs downloaded content`);
  if (script.dynamic) return verdict("high", `${what} runs a script computed at run time`);
  return explainedBy(ctx.judgeScript(script.value), what);
}

/** A script file operand: the project's scripts are low; a downloaded one is blocked. */
function judgeScriptFile(file: StaticWord, ctx: JudgeContext, name: string, isShell: boolean): Verdict {
  if (file.fromDownload) return blocked(`${name} runs downloaded content`);
  if (file.produced) return judgeProducedProgram(file.produced, ctx, name, isShell);
  if (!file.dynamic && (file.value === "/dev/stdin" || file.value === "-"))
    return judgeProgramOnStdin(ctx, name, isShell);
  if (file.dynamic) return verdict("medium", `${name} runs a script chosen at run time`);
  return projectCode(`${name} runs the script ${file.value}`);
}

/** `bash -c '…'` is judged as the script it runs; `bash file` like `./file`; bare `bash` reads stdin. */
const judgeShell: CommandJudge = (args, ctx, name) => {
  let inline = false;
  let fromStdin = false;
  let operand: StaticWord | undefined;
  for (let i = 0; i < args.length; i++) {
    const w = args[i];
    if (w === undefined) break;
    const v = w.value;
    if (w.dynamic || !/^[-+]./.test(v) || v === "--") {
      operand = v === "--" && !w.dynamic ? args[i + 1] : w;
      break;
    }
    if (v.startsWith("--")) {
      if (v === "--rcfile" || v === "--init-file") i++;
      continue;
    }
    const letters = v.slice(1);
    if (v.startsWith("-") && letters.includes("c")) inline = true;
    if (v.startsWith("-") && letters.includes("s")) fromStdin = true;
    if (/[oO]/.test(letters)) i++;
  }
  if (inline) return judgeInlineShell(operand, ctx, `${name} -c`);
  if (operand !== undefined && !fromStdin) return judgeScriptFile(operand, ctx, name, true);
  return judgeProgramOnStdin(ctx, name, true);
};

interface InterpreterSpec {
  /** Short options that introduce inline code (`python -c`, `node -e/-p`, `perl -e/-E`). */
  inline: string;
  inlineLong?: readonly string[];
  /** Short options that take a separate value, so that value is not mistaken for a script. */
  withValue?: string;
  longWithValue?: readonly string[];
}

const interpreterSpecs: Readonly<Record<string, InterpreterSpec>> = {
  python: { inline: "c", withValue: "WXQ" },
  node: {
    inline: "ep",
    inlineLong: ["eval", "print"],
    withValue: "r",
    longWithValue: ["require", "import", "loader", "input-type", "conditions", "env-file"],
  },
  perl: { inline: "eE" },
  ruby: { inline: "e", withValue: "Ir" },
  php: { inline: "rBRFE", withValue: "cdz" },
  lua: { inline: "e", withValue: "l" },
  luajit: { inline: "e", withValue: "l" },
  Rscript: { inline: "e" },
  osascript: { inline: "e" },
  pwsh: { inline: "cC", inlineLong: ["command", "encodedcommand"] },
  powershell: { inline: "cC", inlineLong: ["command", "encodedcommand"] },
};

/** Python modules run with `-m` that are just test runners, checkers or printers. */
const lowPythonModules = new Set([
  "pytest",
  "unittest",
  "mypy",
  "pyright",
  "doctest",
  "py_compile",
  "compileall",
  "pydoc",
  "timeit",
  "pylint",
  "flake8",
]);

function judgePythonModule(
  module: string,
  rest: readonly StaticWord[],
  ctx: JudgeContext,
  name: string,
): Verdict {
  if (module === "pip") return judgePip(rest, ctx, `${name} -m pip`);
  if (module === "json.tool") return safeReadOnly("python -m json.tool only prints");
  if (lowPythonModules.has(module)) return projectCode(`${name} -m ${module} checks or tests the project`);
  if (module === "http.server") return verdict("medium", `${name} -m http.server serves files`);
  return verdict("medium", `${name} -m ${module} runs a module`);
}

function interpreterJudge(spec: InterpreterSpec): CommandJudge {
  return (args, ctx, name) => {
    for (let i = 0; i < args.length; i++) {
      const w = args[i];
      if (w === undefined) break;
      const v = w.value;
      if (w.dynamic || !v.startsWith("-") || v === "-") return judgeScriptFile(w, ctx, name, false);
      if (v === "--") {
        const file = args[i + 1];
        return file ? judgeScriptFile(file, ctx, name, false) : judgeProgramOnStdin(ctx, name, false);
      }
      const long = v.replace(/^--?/, "").split("=")[0]?.toLowerCase() ?? "";
      if (
        (spec.inlineLong ?? []).includes(long) ||
        (!v.startsWith("--") && [...v.slice(1)].some((c) => spec.inline.includes(c)))
      ) {
        const code = args[i + 1];
        if (code?.fromDownload) return blocked(`${name} runs downloaded code`);
        return verdict("high", `${name} runs inline code`);
      }
      if (name === "python" && v.startsWith("-m")) {
        const module = v.length > 2 ? v.slice(2) : args[i + 1]?.value;
        const rest = args.slice(v.length > 2 ? i + 1 : i + 2);
        return module === undefined
          ? verdict("medium", `${name} -m`)
          : judgePythonModule(module, rest, ctx, name);
      }
      if (name === "node" && (v === "--test" || v === "--run"))
        return projectCode(`node ${v} runs the project's tests or scripts`);
      if (name === "node" && (v === "-c" || v === "--check"))
        return safeReadOnly("node --check only checks syntax");
      if (
        v.startsWith("--")
          ? (spec.longWithValue ?? []).includes(long) && !v.includes("=")
          : (spec.withValue ?? "").includes(v.slice(-1)) && v.length === 2
      )
        i++;
    }
    return judgeProgramOnStdin(ctx, name, false);
  };
}

/** `deno eval` runs inline code; `deno run`/`test` run the project's code under deno's permissions. */
const judgeDeno: CommandJudge = (args) => {
  const { name: sub } = splitSubcommand(args);
  if (sub === "eval" || sub === "repl") return verdict("high", "deno runs inline code");
  if (sub === "install" || sub === "add" || sub === "cache")
    return withNetwork(verdict("medium", `deno ${sub} downloads modules`));
  if (sub !== undefined && ["run", "test", "lint", "check", "task", "bench", "doc", "info"].includes(sub)) {
    return projectCode(`deno ${sub} runs the project's code`);
  }
  return verdict("medium", `deno ${sub ?? ""}`.trim());
};

/** `eval` runs its words as a new command line. */
const judgeEval: CommandJudge = (args, ctx) => {
  if (args.length === 0) return safeReadOnly("eval with nothing to run");
  const joined = {
    value: args.map((w) => w.value).join(" "),
    dynamic: args.some((w) => w.dynamic),
    fromDownload: args.some((w) => w.fromDownload),
  };
  return atLeast(judgeInlineShell(joined, ctx, "eval"), "high", "eval runs a constructed command line");
};

/** `source file` / `. file` runs a file in the current shell. */
const judgeSource: CommandJudge = (args, ctx, name) => {
  const file = args[0];
  if (file === undefined) return verdict("medium", `${name} without a file`);
  if (file.fromDownload) return blocked(`${name} runs downloaded content`);
  if (file.produced) return judgeProducedProgram(file.produced, ctx, name, true);
  if (file.dynamic) return verdict("high", `${name} runs a file chosen at run time`);
  if (file.value === "/dev/stdin") return judgeProgramOnStdin(ctx, name, true);
  if (file.value.startsWith("/") || file.value.startsWith("~"))
    return verdict("medium", `${name} runs ${file.value}, outside the project`);
  return projectCode(`${name} runs the project script ${file.value}`);
};

/** `trap 'code' SIGNAL` runs `code` later; it is judged now. */
const judgeTrap: CommandJudge = (args, ctx) => {
  const code = args[0]?.value === "--" ? args[1] : args[0];
  if (code === undefined || (!code.dynamic && (code.value.startsWith("-") || code.value === ""))) {
    return safeReadOnly("trap lists or resets handlers");
  }
  return atLeast(judgeInlineShell(code, ctx, "trap"), "high", "trap runs code later, when a signal arrives");
};

/**
 * `alias name='value'`: the value is judged now as the script it will stand for, so defining a
 * destructive alias is as blocked as running it.
 */
const judgeAlias: CommandJudge = (args, ctx) => {
  const verdicts = args
    .filter((w) => w.dynamic || w.value.includes("="))
    .map((w) => {
      const value = { ...w, value: w.value.slice(w.value.indexOf("=") + 1) };
      return judgeInlineShell(value, ctx, `alias ${w.value.split("=")[0] ?? ""}`);
    });
  return verdicts.length === 0 ? safeReadOnly("alias lists aliases") : combineVerdicts(verdicts);
};

/** `at`/`batch` run the script on their stdin (or `-f FILE`) later, out of sight: at least high. */
const judgeAt: CommandJudge = (args, ctx, name) => {
  const floor = `${name} schedules commands to run later`;
  const listsOrRemoves = args.some((w) => !w.dynamic && /^-[lrdc]$/.test(w.value));
  if (listsOrRemoves) return verdict("low", `${name} lists or removes scheduled jobs`, true);
  if (args.some((w) => !w.dynamic && w.value.startsWith("-f"))) return verdict("high", floor);
  return atLeast(judgeProgramOnStdin(ctx, name, true), "high", floor);
};

/** `enable -f lib.so name` loads a builtin from a shared library: code that runs in the shell. */
const judgeEnable: CommandJudge = (args) =>
  args.some((w) => w.dynamic || /^-[a-z]*f/.test(w.value))
    ? verdict("high", "enable -f loads a builtin from a shared library")
    : verdict("medium", "enable changes which builtins run");

export const shellNames = new Set([
  "sh",
  "bash",
  "zsh",
  "dash",
  "ksh",
  "ash",
  "mksh",
  "yash",
  "rbash",
  "fish",
]);

/** `python3.12` and `pypy3` are python; `nodejs` is node. */
export function interpreterFamily(name: string): string {
  if (/^python[0-9.]*$/.test(name) || /^pypy[0-9.]*$/.test(name)) return "python";
  if (name === "nodejs") return "node";
  if (/^perl[0-9.]*$/.test(name)) return "perl";
  if (/^ruby[0-9.]*$/.test(name)) return "ruby";
  if (/^php[0-9.]*$/.test(name)) return "php";
  return name;
}

export const interpreterJudges: Readonly<Record<string, CommandJudge>> = {
  ...Object.fromEntries([...shellNames].map((name): [string, CommandJudge] => [name, judgeShell])),
  ...Object.fromEntries(
    Object.entries(interpreterSpecs).map(([name, spec]): [string, CommandJudge] => [
      name,
      interpreterJudge(spec),
    ]),
  ),
  deno: judgeDeno,
  eval: judgeEval,
  source: judgeSource,
  ".": judgeSource,
  trap: judgeTrap,
  alias: judgeAlias,
  let: judgeLet,
  at: judgeAt,
  batch: judgeAt,
  enable: judgeEnable,
};
