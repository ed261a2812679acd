import type { SpanRecord } from "@lathe/protocol";

export interface TraceRow {
  span: SpanRecord;
  /** 0 for a run's roots; a span whose parent is missing counts as a root. */
  depth: number;
  /** From the run's start to the span's start. */
  offsetMs: number;
  durationMs: number;
  /** Where the waterfall bar starts and how wide it is, in percent of the run's duration. */
  leftPercent: number;
  widthPercent: number;
}

export interface TraceRun {
  runId: string;
  /** The earliest start and latest end of the run's spans: a run span that never closed still bounds its children. */
  startMs: number;
  endMs: number;
  durationMs: number;
  /** Depth first: each span right after its parent, siblings in start order. */
  rows: TraceRow[];
}

interface SpanNode {
  span: SpanRecord;
  children: SpanNode[];
}

/** The spans of a session as one waterfall per run, newest run first. */
export function layoutTrace(spans: readonly SpanRecord[]): TraceRun[] {
  const spansByRun = new Map<string, SpanRecord[]>();
  for (const span of spans) {
    const runSpans = spansByRun.get(span.runId);
    if (runSpans) runSpans.push(span);
    else spansByRun.set(span.runId, [span]);
  }
  const runs = [...spansByRun].map(([runId, runSpans]) => layoutRun(runId, runSpans));
  return runs.sort((a, b) => b.startMs - a.startMs);
}

function layoutRun(runId: string, spans: readonly SpanRecord[]): TraceRun {
  const startMs = Math.min(...spans.map((span) => span.startMs));
  const endMs = Math.max(...spans.map((span) => span.endMs));
  const durationMs = endMs - startMs;
  // A run of zero length has no scale; its bars collapse to ticks at the start rather than dividing by zero.
  const toPercent = (ms: number) => (durationMs > 0 ? (ms * 100) / durationMs : 0);

  const rows: TraceRow[] = [];
  const visited = new Set<SpanNode>();
  const visit = (node: SpanNode, depth: number) => {
    if (visited.has(node)) return;
    visited.add(node);
    const offsetMs = node.span.startMs - startMs;
    const spanDurationMs = node.span.endMs - node.span.startMs;
    rows.push({
      span: node.span,
      depth,
      offsetMs,
      durationMs: spanDurationMs,
      leftPercent: toPercent(offsetMs),
      widthPercent: toPercent(spanDurationMs),
    });
    for (const child of node.children) visit(child, depth + 1);
  };

  const { roots, nodes } = buildForest(spans);
  for (const root of roots) visit(root, 0);
  // Spans whose parents form a cycle are reachable from no root; shown as roots so no span is lost.
  for (const node of nodes) visit(node, 0);
  return { runId, startMs, endMs, durationMs, rows };
}

function buildForest(spans: readonly SpanRecord[]): { roots: SpanNode[]; nodes: SpanNode[] } {
  const nodesById = new Map<string, SpanNode>();
  for (const span of spans) nodesById.set(span.spanId, { span, children: [] });
  const nodes = [...nodesById.values()].sort(byStart);
  const roots: SpanNode[] = [];
  for (const node of nodes) {
    const parentId = node.span.parentSpanId;
    const parent = parentId === undefined ? undefined : nodesById.get(parentId);
    if (parent && parent !== node) parent.children.push(node);
    else roots.push(node);
  }
  return { roots, nodes };
}

function byStart(a: SpanNode, b: SpanNode): number {
  return a.span.startMs - b.span.startMs;
}

export interface SpanDescription {
  /** The span's name with what tells it apart from its siblings: `tool_call read_file`, `turn 2`. */
  title: string;
  /** Short facts worth a glance: model, tokens, outcome. */
  details: string[];
}

export function describeSpan(span: SpanRecord): SpanDescription {
  const attribute = (key: string) => span.attributes[key];
  const details: string[] = [];
  const addText = (value: string | number | boolean | undefined) => {
    if (value !== undefined && value !== "") details.push(String(value));
  };

  let title: string = span.name;
  switch (span.name) {
    case "run":
      addText(attribute("lathe.model"));
      addText(attribute("lathe.reason"));
      break;
    case "turn": {
      const iteration = attribute("lathe.iteration");
      if (iteration !== undefined) title = `turn ${iteration}`;
      break;
    }
    case "llm_call":
      addText(attribute("gen_ai.request.model"));
      break;
    case "tool_call": {
      const toolName = attribute("lathe.tool.name");
      if (toolName !== undefined) title = `tool_call ${toolName}`;
      addText(attribute("lathe.tool.status"));
      break;
    }
    case "approval":
      addText(attribute("lathe.approval.decision"));
      addText(attribute("lathe.risk"));
      break;
    case "compaction":
      break;
  }

  const inputTokens = attribute("gen_ai.usage.input_tokens");
  const outputTokens = attribute("gen_ai.usage.output_tokens");
  if (typeof inputTokens === "number" && typeof outputTokens === "number")
    details.push(`in ${inputTokens.toLocaleString("en-US")} out ${outputTokens.toLocaleString("en-US")}`);
  const retries = attribute("lathe.retries");
  if (typeof retries === "number" && retries > 0)
    details.push(`${retries} ${retries === 1 ? "retry" : "retries"}`);
  const costUsd = attribute("lathe.cost_usd");
  if (typeof costUsd === "number" && costUsd > 0) details.push(`$${costUsd.toFixed(4)}`);
  return { title, details };
}
