import type { CloudApplyReply } from "@lathe/protocol";

/** What the last apply did, and how to undo it. */
export function ApplyResult(props: { reply: CloudApplyReply; projectRoot: string }) {
  const { reply } = props;
  const what = reply.attempt === null ? "The task's changes" : `Attempt ${reply.attempt}`;
  return (
    <div
      className="lc-apply-result"
      role="status"
      data-testid="apply-result"
      data-attempt={reply.attempt ?? undefined}
    >
      {reply.applied ? (
        <>
          {what} applied to <span className="lp-mono">{props.projectRoot}</span> ({reply.summary}). Undo it
          from the checkpoint taken before{" "}
          <span className="lp-mono" title={reply.checkpointId ?? undefined}>
            {reply.checkpointId?.slice(0, 8)}
          </span>{" "}
          (its session is in the session list).
        </>
      ) : (
        <>{what} changed nothing: there was nothing to apply.</>
      )}
    </div>
  );
}
