import { judgeExpandedText } from "./codeEvaluation.js";
import { judgeInlineShell } from "./interpreters.js";
import type { JudgeContext } from "./judgeContext.js";
import type { StaticWord } from "./staticWords.js";
import { atLeast, type Verdict, verdict } from "./verdict.js";

/** Variables whose value bash expands as a prompt (`PS4` on every traced command with `set -x`). */
const promptVariables = new Set(["PS0", "PS1", "PS2", "PS3", "PS4"]);

/**
 * Variables that change which program runs, what it loads or which configuration it obeys: the
 * command search path, the dynamic loader, start-up files, interpreters' option and module paths,
 * the programs tools start for editing, paging or asking passwords, and git's repository and
 * configuration redirections.
 */
const runChanging =
  /^(PATH|CDPATH|BASH_ENV|ENV|SHELLOPTS|BASHOPTS|BASH_XTRACEFD|GLOBIGNORE|HOME|ZDOTDIR|INPUTRC|FPATH|XDG_CONFIG_HOME|XDG_CONFIG_DIRS|PROMPT_COMMAND|LD_[A-Z_]+|DYLD_[A-Z_]+|GCONV_PATH|HOSTALIASES|LOCPATH|NLSPATH|MALLOC_[A-Z_]+|GIT_[A-Z0-9_]+|NODE_OPTIONS|NODE_PATH|PYTHONPATH|PYTHONSTARTUP|PYTHONHOME|PYTHONUSERBASE|PYTHONINSPECT|PERL5OPT|PERL5LIB|PERLLIB|PERL5DB|RUBYOPT|RUBYLIB|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS|CLASSPATH|EDITOR|VISUAL|PAGER|MANPAGER|MANOPT|LESSOPEN|LESSCLOSE|BROWSER|SUDO_ASKPASS|SSH_ASKPASS|CC|CXX|MAKEFLAGS|MAKEFILES|RUSTC_WRAPPER|RUSTC|[Nn][Pp][Mm]_[Cc][Oo][Nn][Ff][Ii][Gg]_[A-Za-z_]+|PIP_[A-Z_]+|CARGO_[A-Z_]+)$/;

/**
 * Judges `NAME=value` (before a command, alone, after `export`/`declare`/`env`): a prompt variable's
 * value is judged as the code its expansion runs, `PROMPT_COMMAND` as a script, and any variable
 * that changes what runs is at least high. Other assignments are undefined (nothing to add).
 */
export function judgeAssignment(name: string, value: StaticWord, ctx: JudgeContext): Verdict | undefined {
  if (promptVariables.has(name))
    return judgeExpandedText(value.value, ctx, `${name} is expanded as a prompt`);
  if (name === "PROMPT_COMMAND") {
    return atLeast(
      judgeInlineShell(value, ctx, "PROMPT_COMMAND"),
      "high",
      "PROMPT_COMMAND runs code before each prompt",
    );
  }
  if (runChanging.test(name)) return verdict("high", `${name}= changes which programs run or what they load`);
  return undefined;
}

const assignmentWord = /^([A-Za-z_][A-Za-z0-9_]*)\+?=/;

/** Judges the `NAME=value` words a wrapper passes on (`env PATH=… cmd`, `sudo LD_PRELOAD=… cmd`). */
export function judgeAssignmentWords(words: readonly StaticWord[], ctx: JudgeContext): Verdict[] {
  const verdicts: Verdict[] = [];
  for (const word of words) {
    const name = assignmentWord.exec(word.value)?.[1];
    if (name === undefined) continue;
    const value = { ...word, value: word.value.slice(word.value.indexOf("=") + 1) };
    const judged = judgeAssignment(name, value, ctx);
    if (judged) verdicts.push(judged);
  }
  return verdicts;
}
