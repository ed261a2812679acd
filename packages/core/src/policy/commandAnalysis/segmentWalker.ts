import type { Node } from "web-tree-sitter";
import { commandForRules } from "../rules/commandSegments.js";
import { judgeArithmetic, judgeExpandedText, judgeVariableName } from "./codeEvaluation.js";
import { optionValues, parseArgs } from "./commandArgs.js";
import type { CommandParser } from "./commandParser.js";
import { judgeAssignment } from "./environmentAssignments.js";
import { isForkBomb } from "./forkBomb.js";
import { judgeArgv } from "./judgeCommand.js";
import { type JudgeContext, type JudgedCommand, type StdinSource, terminalStdin } from "./judgeContext.js";
import { joinLineContinuations } from "./lineContinuations.js";
import { judgeFileRedirect } from "./redirects.js";
import type { ShellLocation } from "./shellLocation.js";
import { reboundText, recordRebinding } from "./shellRebinding.js";
import {
  cloneState,
  followDirectoryChange,
  initialState,
  mergeConditional,
  type ShellState,
  variableValue,
} from "./shellState.js";
import { noOutput, type StageOutput } from "./stageOutput.js";
import {
  evaluateWord,
  evaluateWords,
  type StaticWord,
  visitSubstitutions,
  type WordScope,
} from "./staticWords.js";
import {
  atLeast,
  blocked,
  combineVerdicts,
  explainedBy,
  safeReadOnly,
  type Verdict,
  verdict,
} from "./verdict.js";

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
  latheHome?: string | undefined;
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
  const tree = settings.parser.parse(joinLineContinuations(source));
  try {
    const walker = new SegmentWalker(settings);
    walker.visit(tree.rootNode, initialState(cwd), terminalStdin);
    walker.flushPending(source);
    const result: WalkResult = { segments: walker.segments };
    if (tree.rootNode.hasError) {
      result.parseError = walker.parseError ?? source;
      walker.visitUnparsed(source, cwd);
    }
    return result;
  } finally {
    // Trees live in wasm memory, which the JavaScript garbage collector does not reclaim.
    tree.delete();
  }
}

class SegmentWalker {
  readonly segments: SegmentRecord[] = [];
  parseError: string | undefined;
  /**
   * Judgements of code that word expansion evaluates (arithmetic, prompt expansion), waiting for
   * the segment whose words are being read.
   */
  private pending: Verdict[] = [];

  constructor(private readonly settings: WalkSettings) {}

  /** Whatever expansion outside any command evaluated becomes a segment of its own. */
  flushPending(text: string): void {
    const pending = this.takePending();
    if (pending.length > 0) this.segments.push({ text, argv: [], verdict: combineVerdicts(pending) });
  }

  /**
   * When the parser fails, the line is also read the way the permission rules read it, and each
   * simple command found is judged: a broken line is never judged below its visible commands.
   */
  visitUnparsed(source: string, cwd: ShellLocation): void {
    const ctx = this.context(initialState(cwd), terminalStdin);
    for (const segment of commandForRules(source).segments) {
      const argv = segment.words.map((w) => ({ value: w.value, dynamic: w.dynamic, fromDownload: false }));
      const judged = judgeArgv(argv, ctx).verdict;
      this.segments.push({
        text: segment.text,
        argv: argv.map((w) => w.value),
        verdict: explainedBy(judged, "read without the parser"),
      });
    }
  }

  private takePending(): Verdict[] {
    const taken = this.pending;
    this.pending = [];
    return taken;
  }

  /** Adds a judgement to the segment being built, or as its own segment. */
  private addSegment(text: string, argv: string[], own: Verdict): void {
    this.segments.push({ text, argv, verdict: combineVerdicts([own, ...this.takePending()]) });
  }

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
      case "variable_assignment": {
        const judged = this.assign(node, state);
        if (judged || this.pending.length > 0)
          this.addSegment(node.text, [], judged ?? safeReadOnly("only sets a variable"));
        return noOutput;
      }
      case "compound_statement":
        if (node.child(0)?.type === "((") {
          this.visitArithmeticCommand(node, state);
          return noOutput;
        }
        return this.visitChildren(node, state, stdin);
      case "c_style_for_statement":
        this.visitArithmeticHeader(node, state);
        return this.visitConditional(node, state, stdin);
      case "declaration_command":
      case "unset_command":
        this.visitDeclaration(node, state);
        return noOutput;
      case "test_command":
        this.visitTest(node, state);
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
    const prefixAssignments: Node[] = [];
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i);
      if (!child) continue;
      const field = node.fieldNameForChild(i);
      if (field === "name") argv.push(...evaluateWords(child.namedChildren[0] ?? child, scope));
      else if (field === "argument") {
        // tree-sitter reads `$"…"` as a lone `$` argument followed by the string.
        if (child.isNamed) argv.push(...evaluateWords(child, scope));
      } else if (field === "redirect") redirects.push(child);
      else if (child.type === "variable_assignment") prefixAssignments.push(child);
      else if (child.isNamed) this.visitChildren(child, state, stdin);
    }
    redirects.push(...outerRedirects);
    const commandStdin = this.stdinFrom(redirects, state, stdin);
    const ctx = this.context(state, commandStdin);
    const assigned: Verdict[] = [];
    for (const assignment of prefixAssignments) {
      const name = assignment.childForFieldName("name")?.text ?? "";
      const judgedAssignment = judgeAssignment(name, evaluateAssignedValue(assignment, scope), ctx);
      if (judgedAssignment) assigned.push(judgedAssignment);
    }
    const judged = judgeArgv(argv, ctx);
    const rebound = reboundText(argv, state);
    if (rebound !== undefined) {
      assigned.push(judgeExpandedCommand(rebound, ctx, `${argv[0]?.value} was rebound`));
    }
    const rebinding = recordRebinding(argv, state);
    if (rebinding) assigned.push(rebinding);
    assigned.push(...this.namesEvaluated(argv, ctx));
    // SPEC §5: substituting the output of a command we do not know is high.
    const own =
      state.substituting && judged.verdict.unknown
        ? atLeast(
            judged.verdict,
            "high",
            `the output of an unknown command is substituted (${argv[0]?.value})`,
          )
        : judged.verdict;
    const verdicts = [own, ...assigned, ...this.judgeRedirects(redirects, state, ctx)];
    this.addSegment(
      textNode.text,
      argv.map((w) => w.value),
      combineVerdicts(verdicts),
    );
    followDirectoryChange(argv, state);
    markRuntimeValues(argv, state);
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

  /** Records a variable's value; returns a judgement when the assignment changes what runs. */
  private assign(node: Node, state: ShellState, arithmetic = false): Verdict | undefined {
    const nameNode = node.childForFieldName("name");
    const value = evaluateAssignedValue(node, this.scope(state));
    if (!nameNode) return undefined;
    const ctx = this.context(state, terminalStdin);
    const verdicts: Verdict[] = [];
    const index = nameNode.type === "subscript" ? nameNode.childForFieldName("index") : null;
    if (index)
      verdicts.push(judgeArithmetic(evaluateWord(index, this.scope(state)).value, ctx, "an array subscript"));
    const name = nameNode.type === "subscript" ? (nameNode.namedChildren[0]?.text ?? "") : nameNode.text;
    if (arithmetic) state.integers.add(name);
    if (value !== undefined) {
      if (arithmetic || state.integers.has(name))
        verdicts.push(judgeArithmetic(value.value, ctx, `declare -i ${name}`));
      const changes = judgeAssignment(name, value, ctx);
      if (changes) verdicts.push(changes);
    }
    const appends = node.children.some((c) => c?.type === "+=");
    const known = !state.conditional && !appends && value !== undefined && !value.dynamic;
    state.vars.set(name, known ? value.value : undefined);
    if (value !== undefined && /\$\(|`/.test(value.value) && value.dynamic) state.runtime.add(name);
    else if (known) state.runtime.delete(name);
    const raised = verdicts.filter((v) => !v.readOnly || v.risk !== "safe");
    return raised.length === 0 ? undefined : combineVerdicts(raised);
  }

  /** `(( expr ))`: arithmetic evaluation, whose variables may hold subscripts that run code. */
  private visitArithmeticCommand(node: Node, state: ShellState): void {
    visitSubstitutions(node, this.scope(state));
    const text = node.text.replace(/^\(\(/, "").replace(/\)\)$/, "");
    const judged = judgeArithmetic(text, this.context(state, terminalStdin), "(( ))");
    this.addSegment(node.text, [], judged);
  }

  /** `for (( init; test; step ))`: the three expressions are arithmetic. */
  private visitArithmeticHeader(node: Node, state: ShellState): void {
    const parts = ["initializer", "condition", "update"]
      .flatMap((field) => node.childrenForFieldName(field))
      .filter((c): c is Node => c !== null);
    const ctx = this.context(state, terminalStdin);
    const verdicts = parts.map((part) => judgeArithmetic(part.text, ctx, "for (( ))"));
    const raised = verdicts.filter((v) => v.risk !== "safe");
    if (raised.length > 0) this.addSegment(node.text, [], combineVerdicts(raised));
  }

  /** `[[ … ]]`: `-eq` and the other numeric tests evaluate both sides as arithmetic. */
  private visitTest(node: Node, state: ShellState): void {
    const scope = this.scope(state);
    visitSubstitutions(node, scope);
    const ctx = this.context(state, terminalStdin);
    const verdicts: Verdict[] = [safeReadOnly("tests a condition")];
    const doubleBracket = node.child(0)?.type === "[[";
    const visitExpressions = (expression: Node): void => {
      const operator = expression.childForFieldName("operator")?.text;
      if (doubleBracket && operator !== undefined && /^-(eq|ne|lt|le|gt|ge)$/.test(operator)) {
        for (const side of ["left", "right"]) {
          const operand = expression.childForFieldName(side);
          if (operand)
            verdicts.push(judgeArithmetic(evaluateWord(operand, scope).value, ctx, `[[ ${operator} ]]`));
        }
      }
      for (const child of expression.namedChildren) if (child) visitExpressions(child);
    };
    visitExpressions(node);
    this.addSegment(node.text, [], combineVerdicts(verdicts));
  }

  /**
   * Builtins that take variable names evaluate a subscript in them: `read 'a[$(cmd)]'`,
   * `printf -v NAME`, `unset NAME`, `mapfile NAME`; `let` evaluates its words as arithmetic.
   */
  private namesEvaluated(argv: readonly StaticWord[], ctx: JudgeContext): Verdict[] {
    const [first, ...args] = argv;
    if (first === undefined || first.dynamic) return [];
    const names = variableNameOperands(first.value, args);
    return names
      .map((w) => judgeVariableName(w, ctx, `${first.value} sets`))
      .filter((v) => v.risk !== "safe");
  }

  private visitDeclaration(node: Node, state: ShellState): void {
    const keyword = node.child(0)?.text ?? "declare";
    const scope = this.scope(state);
    const ctx = this.context(state, terminalStdin);
    const flagWords = node.namedChildren.filter((c): c is Node => c?.type === "word" && /^-/.test(c.text));
    const arithmetic = flagWords.some((c) => /^-[A-Za-z]*i/.test(c.text));
    // `declare -n ref=NAME`: every use of ref reads NAME, subscript included.
    const nameref = flagWords.some((c) => /^-[A-Za-z]*n/.test(c.text));
    const verdicts: Verdict[] = [safeReadOnly(`${keyword} only changes shell variables`)];
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === "variable_assignment") {
        const judged = this.assign(child, state, arithmetic);
        if (judged) verdicts.push(judged);
        if (nameref)
          verdicts.push(judgeVariableName(evaluateAssignedValue(child, scope), ctx, `${keyword} -n`));
        continue;
      }
      if (child.type === "word" && /^[-+]/.test(child.text)) continue;
      const word =
        child.type === "variable_name"
          ? { value: child.text, dynamic: false, fromDownload: false }
          : evaluateWord(child, scope);
      // `declare 'a[$(cmd)]=1'` and `unset 'a[$(cmd)]'`: the quoted word is a name with a subscript.
      const eq = word.value.indexOf("=");
      const nameWord = eq === -1 ? word : { ...word, value: word.value.slice(0, eq) };
      verdicts.push(judgeVariableName(nameWord, ctx, `${keyword} sets`));
      if (eq !== -1) {
        const name = nameWord.value;
        const value = { ...word, value: word.value.slice(eq + 1) };
        const changes = judgeAssignment(name, value, ctx);
        if (changes) verdicts.push(changes);
        if (arithmetic) verdicts.push(judgeArithmetic(value.value, ctx, `${keyword} -i ${name}`));
        if (nameref) verdicts.push(judgeVariableName(value, ctx, `${keyword} -n`));
        state.vars.set(name, undefined);
      } else state.vars.set(word.value, undefined);
      if (arithmetic) state.integers.add(nameWord.value);
    }
    this.addSegment(node.text, [keyword], combineVerdicts(verdicts));
  }

  /** Commands in `$(…)`, backticks and `<(…)` run in a subshell; returns what they write. */
  private substitution(node: Node, state: ShellState): StageOutput {
    const inner = { ...cloneState(state), substituting: true };
    return this.visitChildren(node, inner, terminalStdin);
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
        if (descriptor !== undefined && descriptor !== "0") continue;
        const destination = redirect.childForFieldName("destination");
        if (destination?.type !== "process_substitution") {
          source = { from: "file", downloads: false };
          continue;
        }
        // `sh < <(…)`: what the commands write is the program; visited here, before the judging.
        const produced = this.substitution(destination, state);
        source = withText({ from: "process", downloads: produced.downloads }, produced.text);
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
      const descriptor = redirect.childForFieldName("descriptor")?.text;
      const readsStdin =
        redirectOperator(redirect) === "<" && (descriptor === undefined || descriptor === "0");
      // A process substitution on stdin was walked already, when stdin was worked out.
      if (destination && isProcess && !readsStdin) this.substitution(destination, state);
      const target = destination && !isProcess ? evaluateWord(destination, scope) : undefined;
      verdicts.push(judgeFileRedirect(redirectOperator(redirect), target, isProcess, ctx));
    }
    return verdicts;
  }

  private scope(state: ShellState): WordScope {
    return {
      variable: (name) => variableValue(name, state, this.settings.latheHome),
      substitution: (node) => this.substitution(node, state),
      arithmetic: (text) => {
        const judged = judgeArithmetic(text, this.context(state, terminalStdin), "arithmetic");
        if (judged.risk !== "safe") this.pending.push(judged);
      },
      indirection: (name) => {
        const ctx = this.context(state, terminalStdin);
        const value = variableValue(name, state, this.settings.latheHome);
        const judged = state.runtime.has(name)
          ? verdict("high", `\${!${name}} reads a variable named by a value read at run time`)
          : value === undefined
            ? undefined
            : judgeVariableName({ value, dynamic: false, fromDownload: false }, ctx, `\${!${name}} reads`);
        if (judged && judged.risk !== "safe") this.pending.push(judged);
      },
      prompt: (name) => {
        const value = variableValue(name, state, this.settings.latheHome);
        const ctx = this.context(state, terminalStdin);
        this.pending.push(
          value === undefined
            ? verdict(
                "high",
                `\${${name}@P} expands a value we cannot see as a prompt, running what it holds`,
              )
            : judgeExpandedText(value, ctx, `\${${name}@P} expands ${name} as a prompt`),
        );
      },
    };
  }

  private context(state: ShellState, stdin: StdinSource): JudgeContext {
    const ctx: JudgeContext = {
      cwd: state.cwd,
      projectRoot: this.settings.projectRoot,
      homeDir: this.settings.homeDir,
      latheHome: this.settings.latheHome,
      stdin,
      functions: state.functions,
      argsFromStdin: false,
      variable: (name) => variableValue(name, state, this.settings.latheHome),
      runtimeValue: (name) => state.runtime.has(name),
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

function evaluateAssignedValue(node: Node, scope: WordScope): StaticWord {
  const value = node.childForFieldName("value");
  return value ? evaluateWord(value, scope) : { value: "", dynamic: false, fromDownload: false };
}

/** Options of `read` and `mapfile` that take a value, which is not a variable name. */
const readOptionsWithValue = "adinNptu";
const mapfileOptionsWithValue = "dnOsuCc";

/** The words of a builtin that bash takes as variable names. */
function variableNameOperands(name: string, args: readonly StaticWord[]): StaticWord[] {
  switch (name) {
    case "read":
      return [
        ...parseArgs(args, { shortWithValue: readOptionsWithValue }).operands,
        ...optionValues(parseArgs(args, { shortWithValue: readOptionsWithValue }), "a"),
      ];
    case "mapfile":
    case "readarray":
      return parseArgs(args, { shortWithValue: mapfileOptionsWithValue }).operands.slice(0, 1);
    case "printf":
      return optionValues(parseArgs(args, { shortWithValue: "v", stopAtOperand: true }), "v");
    case "unset":
      return parseArgs(args).operands;
    default:
      return [];
  }
}

/** `read x`, `mapfile a`: their variables now hold data we cannot see. */
function markRuntimeValues(argv: readonly StaticWord[], state: ShellState): void {
  const [first, ...args] = argv;
  if (first === undefined || first.dynamic) return;
  for (const word of variableNameOperands(first.value, args)) {
    if (word.dynamic) continue;
    const name = word.value.replace(/\[.*$/, "");
    state.vars.set(name, undefined);
    if (first.value !== "unset") state.runtime.add(name);
  }
}

/** The judgement of a rebound command, as the text it now stands for; at least high. */
function judgeExpandedCommand(text: string, ctx: JudgeContext, what: string): Verdict {
  return atLeast(explainedBy(ctx.judgeScript(text), what), "high", `${what}: runs something else`);
}
