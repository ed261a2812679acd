export { CodeIndex, type CodeIndexOptions, type RefreshResult } from "./codeIndex.js";
export type { EmbedFunction } from "./embedding/embedder.js";
export { extractSymbols } from "./extractSymbols.js";
export { LiveCodeIndex } from "./liveCodeIndex.js";
export type { SymbolInfo } from "./symbolInfo.js";
