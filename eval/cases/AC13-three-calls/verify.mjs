// AC-13: all three calls of one turn run and their results come back in call order.
export default function verify({ result, toolCalls }) {
  const failures = [];
  if (result.status !== "completed") failures.push(`run ended ${result.status}`);
  const words = toolCalls.map((c) => c.output.match(/\|(\w+)/)?.[1]);
  if (words.join() !== "one,two,three") failures.push(`results came back as ${words.join()}`);
  return failures;
}
