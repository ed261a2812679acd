export { analyzeCommand, analyzeCommandWith } from "./analyzeCommand.js";
export type { AnalyzeOptions, CommandAnalysis, CommandSegment } from "./commandAnalysisTypes.js";
export { type CommandParser, loadCommandParser } from "./commandParser.js";
