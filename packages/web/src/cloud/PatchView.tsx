import { useMemo } from "react";
import { DiffView, splitPatch, summarizeDiff } from "../render/index.js";

/** A patch's files and totals, and its diff behind a toggle: side-by-side cards stay short. */
export function PatchView(props: { patch: string; testId: string }) {
  const files = useMemo(() => splitPatch(props.patch), [props.patch]);
  const totals = useMemo(() => summarizeDiff(files), [files]);
  if (files.length === 0) return <div className="lp-hint">No changes</div>;
  return (
    <div className="lc-patch" data-testid={props.testId}>
      <ul className="lc-patch-files" data-testid="patch-files">
        {files.map((file) => (
          <li key={file.path} className="lp-mono" data-testid="patch-file">
            {file.path}
          </li>
        ))}
      </ul>
      <details className="lc-patch-diff">
        <summary data-testid="patch-diff-toggle">
          Diff: {totals.files} {totals.files === 1 ? "file" : "files"},{" "}
          <span className="lp-added">+{totals.added}</span>{" "}
          <span className="lp-removed">−{totals.removed}</span>
        </summary>
        <DiffView files={files} />
      </details>
    </div>
  );
}
