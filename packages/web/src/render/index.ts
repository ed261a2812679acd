import "./render.css";

export { AnsiOutput, type AnsiOutputProps } from "./AnsiOutput.js";
export { CodeBlock, type CodeBlockProps } from "./CodeBlock.js";
export { DiffView, type DiffViewProps } from "./DiffView.js";
export {
  type DiffFile,
  type DiffSummary,
  parseDiffFile,
  splitPatch,
  summarizeDiff,
} from "./diffModel.js";
export { MarkdownView, type MarkdownViewProps } from "./MarkdownView.js";
