import type { CloudStep } from "@lathe/protocol";

/**
 * The step graph as columns, left to right: a step sits one column after the deepest step it
 * depends on, so steps that run side by side (best-of-N attempts) share a column. A send-back adds
 * steps at the end of the list that earlier ones then wait on (the documenter on the review
 * again), so depths follow the dependencies, not the indexes. Within a column, index order.
 */
export function stepColumns(steps: readonly CloudStep[]): CloudStep[][] {
  const byIndex = new Map(steps.map((step) => [step.index, step]));
  const depths = new Map<number, number>();
  const depthOf = (step: CloudStep, path: ReadonlySet<number>): number => {
    const known = depths.get(step.index);
    if (known !== undefined) return known;
    let depth = 0;
    for (const index of step.dependsOn) {
      const before = byIndex.get(index);
      // A step missing from the list, or a loop a task cannot have, adds no column.
      if (before === undefined || path.has(index)) continue;
      depth = Math.max(depth, depthOf(before, new Set([...path, step.index])) + 1);
    }
    depths.set(step.index, depth);
    return depth;
  };
  const columns: CloudStep[][] = [];
  for (const step of [...steps].sort((a, b) => a.index - b.index)) {
    const depth = depthOf(step, new Set([step.index]));
    const column = columns[depth];
    if (column === undefined) columns[depth] = [step];
    else column.push(step);
  }
  return columns;
}
