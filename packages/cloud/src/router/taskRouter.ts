import { analyzeTaskComplexity, sensitivePathMatch } from "@lathe/core";

export type RouteTarget = "local" | "cloud" | "hybrid";

export interface RouteRequest {
  prompt: string;
  /** --local / --cloud on the command line. */
  override?: "local" | "cloud";
  /** Whether the task database answered. */
  cloudReachable: boolean;
  /** Project-relative paths of sensitive files the upload would carry (a bundle of the local repository); empty when the repository goes by URL. */
  sensitiveFiles: readonly string[];
}

export interface Route {
  target: RouteTarget;
  reason: string;
}

/** One routing rule: a route when it applies, undefined to leave the task to the next rule. */
type RouteRule = (request: RouteRequest) => Route | undefined;

/**
 * Where a task runs, and why in a sentence the user sees. The rules are tried in order and the
 * first that applies decides: what the user asked for, then what is possible (the database, the
 * files that may not leave the machine), then what the task needs (this machine's screen, only
 * thought, a plan split into steps); anything else goes to the fleet.
 */
export function routeTask(request: RouteRequest): Route {
  for (const rule of rules) {
    const route = rule(request);
    if (route !== undefined) return route;
  }
  return {
    target: "cloud",
    reason: "Runs on the fleet in its own checkout, the default once a fleet is reachable.",
  };
}

/** The paths among `paths` whose contents must not leave the machine unasked (core's sensitive paths). */
export function sensitiveFilesIn(paths: readonly string[]): string[] {
  return paths.filter((file) => secretPatterns.has(sensitivePathMatch(file) ?? ""));
}

/**
 * The sensitive-path patterns whose files hold secrets. The policy's other sensitive paths
 * (`.lathe/` settings, shell start-up files, git metadata) decide what runs, which matters for
 * edits, not for where a repository may be sent.
 */
const secretPatterns: ReadonlySet<string> = new Set([
  ".ssh/",
  ".aws/",
  ".gnupg/",
  ".env*",
  "*.pem",
  "*.key",
  "id_rsa*",
  "id_ed25519*",
  "id_ecdsa*",
  "id_dsa*",
  "credentials*",
]);

const overridden: RouteRule = ({ override }) => {
  if (override === "cloud") return { target: "cloud", reason: "--cloud given: runs on the fleet." };
  if (override === "local") return { target: "local", reason: "--local given: runs on this machine." };
  return undefined;
};

const unreachable: RouteRule = ({ cloudReachable }) =>
  cloudReachable
    ? undefined
    : { target: "local", reason: "The task database did not answer, so the task runs on this machine." };

/** Files named in the reason; the rest are counted, so the sentence stays one line. */
const namedSensitiveFiles = 3;

const sensitiveUpload: RouteRule = ({ sensitiveFiles }) => {
  if (sensitiveFiles.length === 0) return undefined;
  const named = sensitiveFiles.slice(0, namedSensitiveFiles).join(", ");
  const more = sensitiveFiles.length - namedSensitiveFiles;
  const list = more > 0 ? `${named} and ${more} more` : named;
  return {
    target: "local",
    reason: `Sensitive files would leave this machine (${list}), so the task runs locally; --cloud sends them anyway.`,
  };
};

interface WordList {
  english: readonly string[];
  chinese: readonly string[];
}

/** Work only the user's own machine can do: its screen, its browser, or the user at it. */
const userMachineWords: WordList = {
  english: [
    "screenshot",
    "screenshots",
    "screen shot",
    "click",
    "clicks",
    "clicking",
    "my browser",
    "my desktop",
    "my screen",
    "on my machine",
    "on my computer",
    "on my laptop",
    "ask me",
    "interactive",
    "interactively",
    "gui",
  ],
  chinese: ["截图", "截屏", "我的电脑", "我的浏览器", "我的桌面", "我的屏幕", "点击", "问我"],
};

/** Tasks that read and think but change nothing: a plan split into steps would not help them. */
const reasoningWords: WordList = {
  english: [
    "review",
    "reviews",
    "reviewing",
    "explain",
    "explains",
    "explaining",
    "explanation",
    "document",
    "documenting",
    "documentation",
    "docs",
    "summarize",
    "summarise",
    "summarizing",
    "plan",
    "propose",
    "proposal",
    "audit",
    "auditing",
  ],
  chinese: ["审查", "评审", "文档", "解释", "总结", "规划"],
};

const needsUserMachine: RouteRule = ({ prompt }) => {
  const found = firstWord(prompt, userMachineWords);
  if (found === undefined) return undefined;
  return {
    target: "local",
    reason: `The task needs this machine ("${found.word}"), so it runs locally.`,
  };
};

/**
 * Words that ask for a change. A reasoning word after one ("refactor it and document it",
 * 添加…并且更新文档) names a part of a change, not the task, which the rules after decide. One
 * before it leads the task: "explain the migration", "review the update flow", 解释一下迁移脚本 —
 * in both languages these words are nouns as often as verbs, and the request's verb comes first.
 */
const changeWords: WordList = {
  english: [
    "fix",
    "add",
    "implement",
    "change",
    "modify",
    "update",
    "refactor",
    "migrate",
    "rewrite",
    "write",
    "create",
    "build",
    "remove",
    "delete",
    "rename",
    "convert",
  ],
  chinese: ["修复", "添加", "增加", "实现", "修改", "更新", "重构", "迁移", "重写", "编写", "删除", "创建"],
};

const pureReasoning: RouteRule = ({ prompt }) => {
  const reasoning = firstWord(prompt, reasoningWords);
  if (reasoning === undefined) return undefined;
  const change = firstWord(prompt, changeWords);
  if (change !== undefined && change.index < reasoning.index) return undefined;
  return {
    target: "cloud",
    reason: `A reasoning task ("${reasoning.word}"): runs on the fleet as one step.`,
  };
};

const complexTask: RouteRule = ({ prompt }) => {
  const analysis = analyzeTaskComplexity(prompt);
  if (analysis.level !== "COMPLEX") return undefined;
  return {
    target: "hybrid",
    reason: `A complex task (${analysis.reasons.join("; ")}): plans in the cloud, then runs the plan's steps across the fleet.`,
  };
};

const rules: readonly RouteRule[] = [
  overridden,
  unreachable,
  sensitiveUpload,
  needsUserMachine,
  pureReasoning,
  complexTask,
];

const patterns = new WeakMap<WordList, RegExp>();

/**
 * The first of the list's words in `text` (lower-cased, spaces collapsed) and where it starts.
 * An English word counts only whole, case-insensitively, and only in prose: the lists hold each
 * form that counts ("review", "reviews", "reviewing", not "reviewer"), and a word joined to a
 * path, a file name, a flag or an identifier (`docs/`, `review.ts`, `--interactive`, `onClick`,
 * `click_handler`) is not one. Chinese has no word breaks, so its words match anywhere.
 */
function firstWord(text: string, words: WordList): { word: string; index: number } | undefined {
  let pattern = patterns.get(words);
  if (pattern === undefined) {
    const english = words.english.map(
      (word) =>
        `(?<![\\w./\\\\@-])${word.split(" ").map(escapeForRegExp).join("\\s+")}(?![\\w/\\\\-]|\\.\\w)`,
    );
    pattern = new RegExp([...english, ...words.chinese.map(escapeForRegExp)].join("|"), "i");
    patterns.set(words, pattern);
  }
  const match = pattern.exec(text);
  if (match === null) return undefined;
  return { word: match[0].toLowerCase().replace(/\s+/g, " "), index: match.index };
}

function escapeForRegExp(word: string): string {
  return word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
