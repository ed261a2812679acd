import { Text } from "ink";
import { approvalDiffRows } from "./approvalDetail.js";
import { DiffView } from "./DiffView.js";
import type { FileDiff } from "./diffLines.js";

/** An approval's detail: the change in colour when the call edits files, else the detail as written. */
export function ApprovalDetailView({ diff, detail }: { diff: FileDiff[]; detail: string }) {
  if (diff.length === 0) return <Text>{detail}</Text>;
  return <DiffView files={diff} maxRows={approvalDiffRows} />;
}
