// E14: ten large reads on a 24k-token window: every request the model received fits in the window.
export default function verify({ requests, result, requestTokens, contextWindow }) {
  const failures = [];
  if (result.status !== "completed") failures.push(`run ended ${result.status}`);
  if (!result.final.includes("m07.ts")) failures.push("the answer does not name m07.ts");
  requests.forEach((body, index) => {
    const tokens = requestTokens(body);
    if (tokens > contextWindow)
      failures.push(`request ${index + 1} has ${tokens} tokens, over the ${contextWindow} window`);
  });
  return failures;
}
