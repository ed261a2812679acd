/**
 * Words that mark how big a task is, in English and Chinese (seed 002). English terms match whole
 * words, case-insensitively; Chinese has no word breaks, so its terms match anywhere.
 */
export const complexTerms = {
  english: [
    "refactor",
    "refactoring",
    "migrate",
    "migration",
    "architecture",
    "architectural",
    "redesign",
    "rewrite",
    "overhaul",
    "restructure",
    "across the codebase",
    "entire codebase",
    "entire project",
    "whole codebase",
    "whole project",
    "all files",
    "multiple files",
    "every file",
    "from scratch",
    "monorepo",
  ],
  chinese: [
    "重构",
    "迁移",
    "架构",
    "整个",
    "多个文件",
    "所有文件",
    "全部文件",
    "重写",
    "从零",
    "跨模块",
    "整体",
  ],
};

export const moderateTerms = {
  english: [
    "add",
    "implement",
    "feature",
    "fix",
    "bug",
    "debug",
    "update",
    "change",
    "modify",
    "support",
    "integrate",
    "improve",
    "optimize",
    "optimise",
    "test",
    "tests",
    "handle",
    "validate",
  ],
  chinese: [
    "添加",
    "增加",
    "实现",
    "功能",
    "修复",
    "修改",
    "更新",
    "优化",
    "测试",
    "支持",
    "集成",
    "调试",
    "改进",
    "处理",
  ],
};

/** Requests that are usually one direct action or a question. */
export const simpleTerms = {
  english: [
    "create a",
    "write a",
    "make a",
    "typo",
    "rename",
    "explain",
    "what is",
    "what does",
    "how do",
    "show me",
  ],
  chinese: ["创建一个", "写一个", "做一个", "解释", "是什么", "怎么", "拼写", "重命名"],
};

/** Words that chain steps ("do X, then Y"). */
export const sequenceTerms = {
  english: ["and then", "then", "after that", "afterwards", "finally", "lastly", "followed by"],
  chinese: ["然后", "并且", "接着", "之后", "最后", "同时", "以及", "此外"],
};

export interface TermList {
  english: readonly string[];
  chinese: readonly string[];
}

const patterns = new WeakMap<TermList, RegExp[]>();

/** Every occurrence of the list's terms in `text`, in order, lower-cased. */
export function findTerms(text: string, terms: TermList): string[] {
  let termPatterns = patterns.get(terms);
  if (!termPatterns) {
    // Two patterns, not one: the Chinese terms need neither case folding nor word boundaries, and
    // without them the English pattern can do without the Unicode flag, whose case-folding tables
    // make it several times slower to compile (milliseconds at every start).
    const english = terms.english.map((term) => `\\b${escapeForRegExp(term)}\\b`);
    const chinese = terms.chinese.map(escapeForRegExp);
    termPatterns = [
      ...(english.length > 0 ? [new RegExp(english.join("|"), "gi")] : []),
      ...(chinese.length > 0 ? [new RegExp(chinese.join("|"), "g")] : []),
    ];
    patterns.set(terms, termPatterns);
  }
  return termPatterns
    .flatMap((pattern) => [...text.matchAll(pattern)])
    .sort((a, b) => a.index - b.index)
    .map((match) => match[0].toLowerCase());
}

function escapeForRegExp(term: string): string {
  return term.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Files the prompt names: `@mentions` and things shaped like paths (a slash, or a name with a
 * short extension such as `app.tsx`). Counted once each.
 */
export function fileMentions(text: string): string[] {
  const mentions = text.match(/@[\w./-]+|(?:[\w.-]+\/)+[\w.-]+|\b[\w-]+\.[a-z][a-z0-9]{0,4}\b/giu) ?? [];
  const files = mentions
    .map((mention) => mention.replace(/^@/, "").replace(/[.,;:]+$/, ""))
    .filter((mention) => !/^\d+(\.\d+)*$/.test(mention) && !/^(e\.g|i\.e|etc)$/i.test(mention));
  return [...new Set(files)];
}

/** Items of numbered or bulleted lists ("1. …", "2) …", "- …", "• …", "一、…"). */
export function listItems(text: string): number {
  return text.match(/^\s*(?:\d+[.)、]|[-*•]|[一二三四五六七八九十]+、)\s*\S/gmu)?.length ?? 0;
}
