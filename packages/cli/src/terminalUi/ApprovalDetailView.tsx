import { Text } from "ink";
import { approvalDiff, approvalDiffRows } from "./approvalDetail.js";
import { DiffView } from "./DiffView.js";

/** An approval's detail: the change in colour when the call edits files, else the detail as written. */
export function ApprovalDetailView({ args, detail }: { args: unknown; detail: string }) {
  const diff = approvalDiff(args);
  if (diff.length === 0) return <Text>{detail}</Text>;
  return <DiffView files={diff} maxRows={approvalDiffRows} />;
}
