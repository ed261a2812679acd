import type { AnalyzeOptions, CommandAnalysis } from "./commandAnalysisTypes.js";
import { type CommandParser, loadCommandParser } from "./commandParser.js";
import { verdictOfWalk, walkScript } from "./segmentWalker.js";
import { projectRootLocation } from "./shellLocation.js";
import { verdict } from "./verdict.js";

/** Longer command lines are not analysed (and are high): no agent needs them, a DoS might. */
const maxCommandLength = 64 * 1024;

/**
 * Parses a shell command line with tree-sitter-bash and judges every segment of it (SPEC §5
 * "Commands"): the result is the most severe segment, with hard blocks for destructive forms.
 */
export async function analyzeCommand(
  command: string,
  options: AnalyzeOptions = {},
): Promise<CommandAnalysis> {
  const parser = await loadCommandParser();
  return analyzeCommandWith(parser, command, options);
}

/** The synchronous core of `analyzeCommand`, for callers that already hold the parser. */
export function analyzeCommandWith(
  parser: CommandParser,
  command: string,
  options: AnalyzeOptions = {},
): CommandAnalysis {
  if (command.length > maxCommandLength) {
    const tooLong = verdict("high", "command too long to analyse");
    return { risk: tooLong.risk, reason: tooLong.reason, readOnly: false, segments: [] };
  }
  const walk = walkScript(
    command,
    {
      parser,
      projectRoot: options.projectRoot,
      homeDir: options.homeDir,
      latheHome: options.latheHome,
      depth: 0,
    },
    projectRootLocation,
  );
  const overall = verdictOfWalk(walk);
  const segments = walk.segments.map((s) => ({
    text: s.text,
    argv: s.argv,
    risk: s.verdict.risk,
    reason: s.verdict.reason,
  }));
  if (walk.parseError !== undefined) {
    segments.unshift({ text: walk.parseError, argv: [], risk: "high", reason: "could not be parsed" });
  }
  const analysis: CommandAnalysis = {
    risk: overall.risk,
    reason: overall.reason,
    readOnly: overall.readOnly,
    segments,
  };
  if (overall.block) analysis.block = overall.block;
  if (overall.needsNetwork) analysis.needsNetwork = true;
  if (overall.runsProjectCode) analysis.runsProjectCode = true;
  return analysis;
}
