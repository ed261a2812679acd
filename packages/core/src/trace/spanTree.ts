import type { SpanRecord } from "@lathe/protocol";

interface Node {
  span: SpanRecord;
  children: Node[];
}

/**
 * The spans as an indented tree for `lathe trace`, children under their parent in start order;
 * each run (or span whose parent is missing) is a root. One line per span:
 * `├─ tool_call read_file  12 ms  error E_FILE_NOT_FOUND`.
 */
export function formatSpanTree(spans: readonly SpanRecord[]): string {
  const lines: string[] = [];
  const visit = (node: Node, lead: string, branch: string) => {
    lines.push(`${lead}${branch}${describe(node.span)}`);
    const childLead = lead + (branch === "├─ " ? "│  " : branch === "└─ " ? "   " : "");
    node.children.forEach((child, i) => {
      visit(child, childLead, i === node.children.length - 1 ? "└─ " : "├─ ");
    });
  };
  for (const root of buildTree(spans)) visit(root, "", "");
  return lines.join("\n");
}

function buildTree(spans: readonly SpanRecord[]): Node[] {
  const nodes = new Map(spans.map((span) => [span.spanId, { span, children: [] as Node[] }]));
  const roots: Node[] = [];
  for (const node of nodes.values()) {
    const parent = node.span.parentSpanId === undefined ? undefined : nodes.get(node.span.parentSpanId);
    (parent ? parent.children : roots).push(node);
  }
  const byStart = (a: Node, b: Node) => a.span.startMs - b.span.startMs;
  for (const node of nodes.values()) node.children.sort(byStart);
  return roots.sort(byStart);
}

function describe(span: SpanRecord): string {
  const parts = [head(span), formatDuration(span.endMs - span.startMs)];
  const outcome = [outcomeWord(span), span.errorCode].filter((p) => p !== undefined).join(" ");
  if (outcome) parts.push(outcome);
  const tokens = tokenText(span);
  if (tokens) parts.push(tokens);
  const retries = span.attributes["lathe.retries"];
  if (typeof retries === "number" && retries > 0)
    parts.push(`${retries} ${retries === 1 ? "retry" : "retries"}`);
  const cost = span.attributes["lathe.cost_usd"];
  if (typeof cost === "number" && cost > 0) parts.push(`$${cost.toFixed(4)}`);
  return parts.join("  ");
}

function head(span: SpanRecord): string {
  const qualifier =
    span.name === "turn"
      ? span.attributes["lathe.iteration"]
      : span.name === "tool_call"
        ? span.attributes["lathe.tool.name"]
        : undefined;
  return qualifier === undefined ? span.name : `${span.name} ${qualifier}`;
}

/** The word that says how the step went; spans without one of their own only say "error". */
function outcomeWord(span: SpanRecord): string | undefined {
  const own =
    span.name === "run"
      ? span.attributes["lathe.reason"]
      : span.name === "tool_call"
        ? span.attributes["lathe.tool.status"]
        : span.name === "approval"
          ? span.attributes["lathe.approval.decision"]
          : undefined;
  if (own !== undefined) return String(own);
  return span.status === "error" ? "error" : undefined;
}

function tokenText(span: SpanRecord): string | undefined {
  const input = span.attributes["gen_ai.usage.input_tokens"];
  const output = span.attributes["gen_ai.usage.output_tokens"];
  if (typeof input !== "number" || typeof output !== "number") return undefined;
  const text = `in ${count(input)} out ${count(output)}`;
  return span.name === "run" ? `${text} tokens` : text;
}

function count(n: number): string {
  return n.toLocaleString("en-US");
}

/** Under a second in whole milliseconds, otherwise seconds with two decimals. */
function formatDuration(ms: number): string {
  const whole = Math.round(ms);
  return whole < 1000 ? `${whole} ms` : `${(ms / 1000).toFixed(2)} s`;
}
