// E15: twenty rounds of ~2k-token outputs on an 8k window: the history is compacted (outputs
// pruned, older rounds summarized), every request fits, and the run completes.
export default function verify({ requests, result, events, requestTokens, contextWindow }) {
  const failures = [];
  if (result.status !== "completed") failures.push(`run ended ${result.status}`);
  const compactions = events.filter((event) => event.type === "compaction");
  if (compactions.length === 0) failures.push("no compaction happened");
  if (!compactions.some((event) => event.summarized))
    failures.push("no compaction summarized the older rounds");
  if (!compactions.some((event) => event.prunedOutputs > 0))
    failures.push("no compaction pruned old outputs");
  requests.forEach((body, index) => {
    const tokens = requestTokens(body);
    if (tokens > contextWindow)
      failures.push(`request ${index + 1} has ${tokens} tokens, over the ${contextWindow} window`);
  });
  return failures;
}
