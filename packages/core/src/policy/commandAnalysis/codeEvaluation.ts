import type { JudgeContext } from "./judgeContext.js";
import type { StaticWord } from "./staticWords.js";
import { atLeast, combineVerdicts, explainedBy, safeReadOnly, type Verdict, verdict } from "./verdict.js";

const expansionEnd = "LATHE_EXPANDED_TEXT_END";

/**
 * Judges text that bash expands like a double-quoted string and so runs every `$(…)` and backtick
 * in it (a prompt string, an arithmetic subscript). It is at least high whatever it holds: the
 * shell evaluates it as code.
 */
export function judgeExpandedText(text: string, ctx: JudgeContext, what: string): Verdict {
  if (text.includes(expansionEnd)) return verdict("high", `${what}: evaluates text as code`);
  // The parser leaves backticks in a heredoc body as text; `$(…)` is the same substitution.
  const body = text.replace(/`([^`]*)`/g, "$($1)");
  const inner = ctx.judgeScript(`: <<${expansionEnd}\n${body}\n${expansionEnd}\n`);
  return atLeast(explainedBy(inner, what), "high", `${what}: evaluates text as code`);
}

/** Text that runs commands when bash expands it. */
const runsCommands = /\$\(|`|\$\{[^}]*@P/;
const identifier = /[A-Za-z_][A-Za-z0-9_]*/g;
/** Variables referring to variables deeper than this are not followed (and are high). */
const maxIndirection = 8;

/**
 * bash evaluates arithmetic (`(( ))`, `$(( ))`, `let`, `declare -i`, `[[ -eq ]]`, array
 * subscripts) recursively: a variable's value is itself evaluated, and a subscript in it is
 * expanded, so `x='a[$(cmd)]'; (( x ))` runs cmd. Plain arithmetic is safe; arithmetic that
 * reaches a command substitution is judged as that code and is at least high.
 */
export function judgeArithmetic(text: string, ctx: JudgeContext, what: string): Verdict {
  return arithmeticAt(text, ctx, what, 0, new Set());
}

function arithmeticAt(
  text: string,
  ctx: JudgeContext,
  what: string,
  depth: number,
  seen: Set<string>,
): Verdict {
  if (depth > maxIndirection) return verdict("high", `${what}: variables refer to variables too deeply`);
  if (runsCommands.test(text)) return judgeExpandedText(text, ctx, what);
  const verdicts: Verdict[] = [];
  for (const [name] of text.matchAll(identifier)) {
    if (seen.has(name)) continue;
    seen.add(name);
    if (ctx.runtimeValue(name)) {
      verdicts.push(verdict("high", `${what} evaluates ${name}, a value read at run time, as code`));
      continue;
    }
    const value = ctx.variable(name);
    if (value !== undefined && !/^\s*-?\d+\s*$/.test(value)) {
      verdicts.push(arithmeticAt(value, ctx, `${what} (${name})`, depth + 1, seen));
    }
  }
  return verdicts.length === 0 ? safeReadOnly(`${what} only computes`) : combineVerdicts(verdicts);
}

/**
 * A word bash reads as a variable name (`read NAME`, `printf -v NAME`, `unset NAME`): a subscript
 * in it is evaluated as arithmetic, and a name computed at run time could hold any subscript.
 */
export function judgeVariableName(word: StaticWord, ctx: JudgeContext, what: string): Verdict {
  if (word.dynamic) return verdict("high", `${what} a variable name computed at run time (${word.value})`);
  const open = word.value.indexOf("[");
  if (open === -1) return safeReadOnly(`${what} ${word.value}`);
  const close = word.value.lastIndexOf("]");
  const subscript = word.value.slice(open + 1, close === -1 ? undefined : close);
  return judgeArithmetic(subscript, ctx, `${what} ${word.value}`);
}

/** `let EXPR…`: every word is an arithmetic expression. */
export function judgeLet(args: readonly StaticWord[], ctx: JudgeContext): Verdict {
  if (args.length === 0) return safeReadOnly("let with nothing to compute");
  return combineVerdicts(
    // A dynamic word keeps its source text (`$i+1`), whose variables are followed the same way.
    args.map((w) => judgeArithmetic(w.value, ctx, "let")),
  );
}
