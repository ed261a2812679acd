import type { Node } from "web-tree-sitter";
import type { CommandParser } from "./commandParser.js";
import { isForkBomb } from "./forkBomb.js";
import { judgeArgv } from "./judgeCommand.js";
import {
  type JudgeContext,
  type JudgedCommand,
  noOutput,
  type StageOutput,
  type StdinSource,
  terminalStdin,
} from "./judgeContext.js";
import { judgeFileRedirect } from "./redirects.js";
import type { ShellLocation } from "./shellLocation.js";
import {
  cloneState,
  followDirectoryChange,
  mergeConditional,
  type ShellState,
  variableValue,
} from "./shellState.js";
import {
  evaluateWord,
  evaluateWords,
  type StaticWord,
  visitSubstitutions,
  type WordScope,
} from "./staticWords.js";
import { atLeast, blocked, combineVerdicts, safeReadOnly, type Verdict, verdict } from "./verdict.js";

/** One judged segment, before it is turned into the public `CommandSegment`. */
export interface SegmentRecord {
  text: string;
  argv: string[];
  verdict: Verdict;
}

export interface WalkSettings {
  parser: CommandParser;
  projectRoot?: string | undefined;
  homeDir?: string | undefined;
  /** How many `bash -c`/`eval` levels deep this walk is. */
  depth: number;
}

export interface WalkResult {
  segments: SegmentRecord[];
  /** Source text of the part that did not parse, when something did not. */
  parseError?: string;
}

/** `bash -c "bash -c \"…\""` deeper than this is not followed (and is high). */
const maxNesting = 6;

/** Node types that are statements (or hold statements) rather than words. */
const statementTypes = new Set([
  "program",
  "list",
  "pipeline",
  "subshell",
  "compound_statement",
  "do_group",
  "else_clause",
  "elif_clause",
  "case_item",
  "negated_command",
  "redirected_statement",
  "command",
  "if_statement",
  "while_statement",
  "for_statement",
  "c_style_for_statement",
  "case_statement",
  "function_definition",
  "variable_assignment",
  "variable_assignments",
  "declaration_command",
  "unset_command",
  "test_command",
  "ERROR",
]);

const conditionalTypes = new Set([
  "if_statement",
  "while_statement",
  "for_statement",
  "c_style_for_statement",
  "case_statement",
]);

/** Parses a script and judges every segment of it. */
export function walkScript(source: string, settings: WalkSettings, cwd: ShellLocation): WalkResult {
  const tree = settings.parser.parse(source);
  try {
    const walker = new SegmentWalker(settings);
    const state: ShellState = {
      cwd,
      vars: new Map(),
      functions: new Set(),
      conditional: false,
      substituting: false,
    };
    walker.visit(tree.rootNode, state, terminalStdin);
    const result: WalkResult = { segments: walker.segments };
    if (tree.rootNode.hasError) result.parseError = walker.parseError ?? source;
    return result;
  } finally {
    // Trees live in wasm memory, which the JavaScript garbage collector does not reclaim.
    tree.delete();
  }
}

class SegmentWalker {
  readonly segments: SegmentRecord[] = [];
  parseError: string | undefined;

  constructor(private readonly settings: WalkSettings) {}

  visit(node: Node, state: ShellState, stdin: StdinSource): StageOutput {
    switch (node.type) {
      case "list":
        return this.visitList(node, state, stdin);
      case "pipeline":
        return this.visitPipeline(namedStatements(node), state, stdin);
      case "subshell":
        return this.visitChildren(node, cloneState(state), stdin);
      case "redirected_statement":
        return this.visitRedirected(node, state, stdin);
      case "command":
        return this.visitCommand(node, [], node, state, stdin);
      case "function_definition":
        this.visitFunction(node, state);
        return noOutput;
      case "variable_assignment":
        this.assign(node, state);
        return noOutput;
      case "declaration_command":
      case "unset_command":
        this.visitDeclaration(node, state);
        return noOutput;
      case "test_command":
        visitSubstitutions(node, this.scope(state));
        this.segments.push({ text: node.text, argv: [], verdict: safeReadOnly("tests a condition") });
        return noOutput;
      case "ERROR":
        this.parseError ??= node.text;
        return this.visitChildren(node, state, stdin);
      default:
        if (conditionalTypes.has(node.type)) return this.visitConditional(node, state, stdin);
        return this.visitChildren(node, state, stdin);
    }
  }

  /** Statements in order; words between them (loop lists, case values) only for substitutions. */
  private visitChildren(node: Node, state: ShellState, stdin: StdinSource): StageOutput {
    let output = noOutput;
    for (const child of node.namedChildren) {
      if (!child || child.type === "comment") continue;
      if (statementTypes.has(child.type)) output = this.visit(child, state, stdin);
      else if (child.type === "command_substitution" || child.type === "process_substitution") {
        this.substitution(child, state);
      } else visitSubstitutions(child, this.scope(state));
    }
    return output;
  }

  private visitConditional(node: Node, state: ShellState, stdin: StdinSource): StageOutput {
    const inner = cloneState(state, true);
    const loopVariable = node.childForFieldName("variable")?.text;
    if (loopVariable !== undefined) inner.vars.set(loopVariable, undefined);
    const output = this.visitChildren(node, inner, stdin);
    mergeConditional(state, inner);
    return output;
  }

  /** `a && b`, `a || b`, `a; b`: the right side of `&&`/`||` may not run. */
  private visitList(node: Node, state: ShellState, stdin: StdinSource): StageOutput {
    let output = noOutput;
    let operator: string | undefined;
    for (const child of node.children) {
      if (!child) continue;
      if (!child.isNamed) {
        operator = child.type;
        continue;
      }
      if (child.type === "comment") continue;
      if (operator === "&&" || operator === "||") {
        const inner = cloneState(state, true);
        output = this.visit(child, inner, stdin);
        mergeConditional(state, inner);
      } else output = this.visit(child, state, stdin);
    }
    return output;
  }

  /**
   * Each stage reads what the previous one wrote. Once downloaded data enters a pipeline it is
   * assumed to reach every later stage (`curl … | tee x | sh`).
   */
  private visitPipeline(
    stages: readonly Node[],
    state: ShellState,
    stdin: StdinSource,
    first?: StageOutput,
  ): StageOutput {
    let previous = first;
    let downloads = stdin.downloads || (first?.downloads ?? false);
    for (const stage of stages) {
      const input: StdinSource =
        previous === undefined ? stdin : withText({ from: "pipe", downloads }, previous.text);
      previous = this.visit(stage, cloneState(state), input);
      downloads ||= previous.downloads;
    }
    return withText({ downloads }, previous?.text);
  }

  private visitRedirected(node: Node, state: ShellState, stdin: StdinSource): StageOutput {
    const body = node.childForFieldName("body");
    const redirects = node.childrenForFieldName("redirect").filter((r): r is Node => r !== null);
    let output: StageOutput;
    if (body?.type === "command") output = this.visitCommand(body, redirects, node, state, stdin);
    else {
      const start = this.segments.length;
      const inner = this.stdinFrom(redirects, state, stdin);
      output = body ? this.visit(body, state, inner) : noOutput;
      const verdicts = this.judgeRedirects(redirects, state, this.context(state, inner));
      const last = this.segments.length > start ? this.segments[this.segments.length - 1] : undefined;
      // Redirects after a compound statement apply to all of it; they are added to its last
      // segment (tree-sitter also hangs `a && b > f` here, where the redirect is b's).
      if (last) last.verdict = combineVerdicts([last.verdict, ...verdicts]);
      else this.segments.push({ text: node.text, argv: [], verdict: combineVerdicts(verdicts) });
    }
    this.visitHeredocContinuations(redirects, state, output);
    return output;
  }

  /**
   * tree-sitter hangs what follows a heredoc's first line under the heredoc node:
   * `cat <<EOF | sh` (a pipeline) and `cmd <<EOF && next` (an operator and a statement).
   */
  private visitHeredocContinuations(
    redirects: readonly Node[],
    state: ShellState,
    output: StageOutput,
  ): void {
    for (const redirect of redirects) {
      if (redirect.type !== "heredoc_redirect") continue;
      const pipeline = redirect.namedChildren.find((c) => c?.type === "pipeline");
      if (pipeline)
        this.visitPipeline(namedStatements(pipeline), state, { from: "pipe", downloads: false }, output);
      const right = redirect.childForFieldName("right");
      if (right) {
        const inner = cloneState(state, true);
        this.visit(right, inner, terminalStdin);
        mergeConditional(state, inner);
      }
    }
  }

  private visitCommand(
    node: Node,
    outerRedirects: readonly Node[],
    textNode: Node,
    state: ShellState,
    stdin: StdinSource,
  ): StageOutput {
    const scope = this.scope(state);
    const argv: StaticWord[] = [];
    const redirects: Node[] = [];
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i);
      if (!child) continue;
      const field = node.fieldNameForChild(i);
      if (field === "name") argv.push(...evaluateWords(child.namedChildren[0] ?? child, scope));
      else if (field === "argument") {
        // tree-sitter reads `$"…"` as a lone `$` argument followed by the string.
        if (child.isNamed) argv.push(...evaluateWords(child, scope));
      } else if (field === "redirect") redirects.push(child);
      else if (child.type === "variable_assignment") evaluateAssignedValue(child, scope);
      else if (child.isNamed) this.visitChildren(child, state, stdin);
    }
    redirects.push(...outerRedirects);
    const commandStdin = this.stdinFrom(redirects, state, stdin);
    const ctx = this.context(state, commandStdin);
    const judged = judgeArgv(argv, ctx);
    // SPEC §5: substituting the output of a command we do not know is high.
    const own =
      state.substituting && judged.verdict.unknown
        ? atLeast(
            judged.verdict,
            "high",
            `the output of an unknown command is substituted (${argv[0]?.value})`,
          )
        : judged.verdict;
    const verdicts = [own, ...this.judgeRedirects(redirects, state, ctx)];
    this.segments.push({
      text: textNode.text,
      argv: argv.map((w) => w.value),
      verdict: combineVerdicts(verdicts),
    });
    followDirectoryChange(argv, state);
    return judged.output;
  }

  private visitFunction(node: Node, state: ShellState): void {
    const name = node.childForFieldName("name")?.text ?? "";
    if (isForkBomb(node)) {
      this.segments.push({
        text: node.text,
        argv: [name],
        verdict: blocked(`fork bomb: ${name} starts copies of itself without end`),
      });
    }
    // Added first so that the body's own (recursive) calls count as calls to it.
    state.functions.add(name);
    const body = node.childForFieldName("body");
    if (body) this.visit(body, cloneState(state, true), terminalStdin);
  }

  private assign(node: Node, state: ShellState): void {
    const name = node.childForFieldName("name")?.text;
    const value = evaluateAssignedValue(node, this.scope(state));
    if (name === undefined) return;
    const appends = node.children.some((c) => c?.type === "+=");
    const known = !state.conditional && !appends && value !== undefined && !value.dynamic;
    state.vars.set(name, known ? value.value : undefined);
  }

  private visitDeclaration(node: Node, state: ShellState): void {
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === "variable_assignment") this.assign(child, state);
      else if (node.type === "unset_command" || child.type === "variable_name")
        state.vars.set(child.text, undefined);
      else visitSubstitutions(child, this.scope(state));
    }
    const keyword = node.child(0)?.text ?? "declare";
    this.segments.push({
      text: node.text,
      argv: [keyword],
      verdict: safeReadOnly(`${keyword} only changes shell variables`),
    });
  }

  /** Commands in `$(…)`, backticks and `<(…)` run in a subshell; returns whether they download. */
  private substitution(node: Node, state: ShellState): boolean {
    const inner = { ...cloneState(state), substituting: true };
    return this.visitChildren(node, inner, terminalStdin).downloads;
  }

  private stdinFrom(redirects: readonly Node[], state: ShellState, inherited: StdinSource): StdinSource {
    let source = inherited;
    const scope = this.scope(state);
    for (const redirect of redirects) {
      if (redirect.type === "heredoc_redirect") {
        const body = redirect.namedChildren.find((c) => c?.type === "heredoc_body");
        if (!body) {
          source = { from: "heredoc", downloads: false, text: "" };
          continue;
        }
        const expands = body.namedChildren.some((c) => c !== null && c.type !== "heredoc_content");
        const downloads = visitSubstitutions(body, scope);
        source = expands
          ? { from: "heredoc", downloads }
          : { from: "heredoc", downloads: false, text: body.text };
      } else if (redirect.type === "herestring_redirect") {
        const wordNode = redirect.namedChildren.find((c) => c !== null && c.type !== "file_descriptor");
        const word = wordNode ? evaluateWord(wordNode, scope) : undefined;
        source =
          word === undefined || word.dynamic
            ? { from: "heredoc", downloads: word?.fromDownload ?? false }
            : { from: "heredoc", downloads: false, text: `${word.value}\n` };
      } else if (redirect.type === "file_redirect" && redirectOperator(redirect) === "<") {
        const descriptor = redirect.childForFieldName("descriptor")?.text;
        if (descriptor === undefined || descriptor === "0") source = { from: "file", downloads: false };
      }
    }
    return source;
  }

  private judgeRedirects(redirects: readonly Node[], state: ShellState, ctx: JudgeContext): Verdict[] {
    const verdicts: Verdict[] = [];
    const scope = this.scope(state);
    for (const redirect of redirects) {
      if (redirect.type === "heredoc_redirect") {
        const nested = redirect
          .childrenForFieldName("redirect")
          .filter((r): r is Node => r?.type === "file_redirect");
        verdicts.push(...this.judgeRedirects(nested, state, ctx));
        continue;
      }
      if (redirect.type !== "file_redirect") continue;
      const destinations = redirect.childrenForFieldName("destination").filter((d): d is Node => d !== null);
      const [destination, ...extra] = destinations;
      for (const word of extra) visitSubstitutions(word, scope);
      const isProcess = destination?.type === "process_substitution";
      if (destination && isProcess) this.substitution(destination, state);
      const target = destination && !isProcess ? evaluateWord(destination, scope) : undefined;
      verdicts.push(judgeFileRedirect(redirectOperator(redirect), target, isProcess, ctx));
    }
    return verdicts;
  }

  private scope(state: ShellState): WordScope {
    return {
      variable: (name) => variableValue(name, state),
      substitution: (node) => this.substitution(node, state),
    };
  }

  private context(state: ShellState, stdin: StdinSource): JudgeContext {
    const ctx: JudgeContext = {
      cwd: state.cwd,
      projectRoot: this.settings.projectRoot,
      homeDir: this.settings.homeDir,
      stdin,
      functions: state.functions,
      argsFromStdin: false,
      judgeScript: (source) => this.judgeScript(source, state.cwd),
      judgeArgv: (argv, overrides): JudgedCommand => judgeArgv(argv, { ...ctx, ...overrides }),
    };
    return ctx;
  }

  private judgeScript(source: string, cwd: ShellLocation): Verdict {
    if (this.settings.depth >= maxNesting) return verdict("high", "nested scripts too deep to follow");
    const nested = walkScript(source, { ...this.settings, depth: this.settings.depth + 1 }, cwd);
    return verdictOfWalk(nested);
  }
}

/** The verdict of a whole walk: its segments, and "could not be parsed" (high) first if it failed. */
export function verdictOfWalk(walk: WalkResult): Verdict {
  const verdicts = walk.segments.map((s) => s.verdict);
  if (walk.parseError !== undefined) verdicts.unshift(verdict("high", "could not be parsed"));
  return verdicts.length === 0 ? safeReadOnly("empty command") : combineVerdicts(verdicts);
}

function namedStatements(node: Node): Node[] {
  return node.namedChildren.filter((c): c is Node => c !== null && statementTypes.has(c.type));
}

function withText<T extends { downloads: boolean; text?: string }>(value: T, text: string | undefined): T {
  return text === undefined ? value : { ...value, text };
}

function redirectOperator(redirect: Node): string {
  for (const child of redirect.children) if (child && !child.isNamed) return child.type;
  return "";
}

function evaluateAssignedValue(node: Node, scope: WordScope): StaticWord | undefined {
  const value = node.childForFieldName("value");
  return value ? evaluateWord(value, scope) : { value: "", dynamic: false, fromDownload: false };
}
