/**
 * Lines a model writes in place of code it did not want to repeat ("// ... rest of the code ...",
 * "# (rest of methods unchanged)", "/* existing code *\/"). Written into a file, such a line
 * replaces the code it stands for, which is deleted. Only whole-line comments count: a bare `...`
 * is code (a JavaScript spread, Python's Ellipsis).
 */

/** Comment openers and closers, longest first so `<!--` is not read as `<`. */
const commentOpeners = ["<!--", "{/*", "/*", "//", "--", "#", ";", "%", "*"] as const;
/** Openers that are also code (`*ptr = 0;`, `--count;`, `;;`) unless a space follows them. */
const openersBeforeSpace: ReadonlySet<string> = new Set(["*", "--", ";", "%"]);
const commentClosers = ["-->", "*/}", "*/"] as const;
/** Dots alone, short enough not to be a ruled separator line ("// ........................"). */
const dotsOnly = /^[\s.…()[\]]{0,9}$/;
const ellipsis = /\.{2,}|…/;
/** Dots, ellipses and brackets models wrap the words in: "... (existing code) ...". */
const wrapping = /^[\s.…()[\]{}<>:,;!-]+|[\s.…()[\]{}<>:,;!-]+$/g;

/** What the omitted code is called: "rest of the *file*", "existing *methods*". */
const subjects =
  "(?:code|file|class|classes|function|functions|method|methods|implementation|implementations|component|components|module|logic|body|content|contents|imports|tests?|cases|props|properties|fields|members|lines|definitions|handlers|styles|config|configuration|markup|html|template|page|section|routes|exports|declarations|statements|helpers|code base|codebase|script|program|block|blocks|loop|switch|object|array|list|items|entries|keys|values|rules|steps|setup|types|interfaces|enum|schema|queries|migrations|dependencies|settings|options|arguments|parameters|attributes|elements|children|text|document)";
const qualifier =
  "(?:(?:the|this|that|these|of|existing|other|original|previous|remaining|file|function|class|method|test|unchanged)\\s+){0,3}";
const unchangedTail =
  "(?:\\s+(?:is|are|stays?|remains?|goes|go|kept|left|unchanged|the same|same|as before|as is|omitted|elided|skipped|here|below|above|for brevity|not shown|as it was|untouched|unmodified|identical|same as before|\\.\\.\\.|…))*";

const omissionPhrases: readonly RegExp[] = [
  // "rest of the code", "rest of methods unchanged", "the rest of the file remains the same"
  new RegExp(`^(?:the\\s+)?rest\\s+of\\s+${qualifier}${subjects}${unchangedTail}$`),
  // "existing code", "remaining methods unchanged", "previous implementation here"
  new RegExp(
    `^(?:keep\\s+)?(?:all\\s+)?(?:the\\s+)?(?:existing|remaining|unchanged|previous|original|omitted|same)\\s+${qualifier}${subjects}${unchangedTail}$`,
  ),
  // "other methods unchanged", "more code here": only with a word saying they are left out
  new RegExp(
    `^(?:all\\s+)?(?:the\\s+)?(?:other|more)\\s+${qualifier}${subjects}\\s+(?:is|are|stays?|remains?|goes|unchanged|the same|as before|omitted|here|not shown|for brevity|untouched)${unchangedTail}$`,
  ),
  // "code unchanged", "methods omitted for brevity", "imports remain the same"
  new RegExp(
    `^${qualifier}${subjects}\\s+(?:is\\s+|are\\s+)?(?:unchanged|omitted|elided|untouched|unmodified|stays?\\s+the\\s+same|remains?\\s+(?:the\\s+same|unchanged|as\\s+is)|(?:same\\s+)?as\\s+before|not\\s+shown)${unchangedTail}$`,
  ),
  // "unchanged", "same as before", "snip", "omitted for brevity", "no changes below"
  /^(?:unchanged|same as before|as before|snip|snipped|omitted(?: for brevity)?|truncated|no changes?(?: (?:below|above|here))?|nothing (?:else )?changed|keep (?:as is|the rest)|rest unchanged|and so on)$/,
];

/** Whether `line` is a comment standing for omitted code rather than code or a real comment. */
export function isOmissionPlaceholder(line: string): boolean {
  const body = commentBody(line.trim());
  if (body === undefined) return false;
  const words = body.toLowerCase().replace(wrapping, "").replace(/\s+/g, " ");
  if (words === "") return ellipsis.test(body) && dotsOnly.test(body);
  return omissionPhrases.some((phrase) => phrase.test(words));
}

/**
 * The first line of `newText` that is an omission placeholder not already among the lines of
 * `oldText`: a placeholder the old text had is a real comment of the file and may stay.
 */
export function introducedPlaceholder(oldText: string, newText: string): string | undefined {
  const existing = new Set(oldText.split("\n").map((line) => line.trim()));
  return newText
    .split("\n")
    .map((line) => line.trim())
    .find((line) => !existing.has(line) && isOmissionPlaceholder(line));
}

/** Why a placeholder is refused, the sentence every refusal of one shares after quoting it. */
export const placeholderConsequence =
  "a placeholder for code that is not written out: writing it would replace the code it stands for and delete that code.";

function commentBody(trimmed: string): string | undefined {
  const opener = commentOpeners.find((candidate) => trimmed.startsWith(candidate));
  if (opener === undefined) return undefined;
  let body = trimmed.slice(opener.length);
  if (openersBeforeSpace.has(opener) && !/^\s/.test(body)) return undefined;
  const closer = commentClosers.find((candidate) => body.endsWith(candidate));
  if (closer !== undefined) body = body.slice(0, -closer.length);
  return body.trim();
}
