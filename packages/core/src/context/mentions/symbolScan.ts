import { readFile, stat } from "node:fs/promises";
import { binaryExtensionOf, containsNulByte } from "../../fileSystem/binaryFiles.js";
import { walkFiles } from "../../fileSystem/walkFiles.js";
import { isSensitivePath } from "../../policy/sensitivePaths.js";
import { builtinIgnorePatterns } from "../../tools/projectIgnore/builtinIgnores.js";
import { splitLines } from "../dynamic/contextText.js";

export interface FoundDefinition {
  /** Relative to the project root, `/` separated. */
  path: string;
  line: number;
  /** The definition's line and those after it. */
  lines: string[];
}

export interface SymbolScanLimits {
  maxFiles: number;
  maxFileBytes: number;
  timeMs: number;
  maxDefinitions: number;
  /** Lines shown from each definition on. */
  linesPerDefinition: number;
}

/**
 * Where `name` looks defined, found by reading files, for when no code index is at hand. It knows
 * the common spellings of a definition (`function`, `class`, `def`, `func`, `interface`, `type`,
 * `const`…, and `Name =` at the start of a line) and nothing of scopes: a guess that is cheap,
 * bounded in files, bytes and time, and never needs ripgrep.
 */
export async function scanForDefinitions(
  projectRoot: string,
  name: string,
  limits: SymbolScanLimits,
  signal: AbortSignal,
): Promise<FoundDefinition[]> {
  const bounded = AbortSignal.any([signal, AbortSignal.timeout(limits.timeMs)]);
  const files = (await walkFiles(projectRoot, projectRoot, builtinIgnorePatterns, bounded))
    .sort((a, b) => (a.relative < b.relative ? -1 : 1))
    .slice(0, limits.maxFiles);
  const pattern = definitionPattern(name);
  const found: FoundDefinition[] = [];
  for (const file of files) {
    if (bounded.aborted || found.length >= limits.maxDefinitions) break;
    if (binaryExtensionOf(file.relative) !== undefined || isSensitivePath(file.relative, { projectRoot }))
      continue;
    const text = await smallTextFile(file.absolute, limits.maxFileBytes);
    if (text === undefined || !text.includes(name)) continue;
    const lines = splitLines(text);
    for (const [index, line] of lines.entries()) {
      if (found.length >= limits.maxDefinitions) break;
      if (!pattern.test(line)) continue;
      found.push({
        path: file.relative,
        line: index + 1,
        lines: lines.slice(index, index + limits.linesPerDefinition),
      });
    }
  }
  return found;
}

export function definitionPattern(name: string): RegExp {
  const n = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const keywords = "function\\*?|class|def|func|interface|type|struct|enum|trait|fn|const|let|var";
  return new RegExp(
    `\\b(?:${keywords})\\s+${n}\\b|\\bfunc\\s*\\([^)]*\\)\\s*${n}\\b|^\\s*(?:export\\s+)?${n}\\s*=(?![=>])`,
  );
}

async function smallTextFile(absolute: string, maxBytes: number): Promise<string | undefined> {
  try {
    if ((await stat(absolute)).size > maxBytes) return undefined;
    const bytes = await readFile(absolute);
    return containsNulByte(bytes) ? undefined : bytes.toString("utf8");
  } catch {
    return undefined;
  }
}
