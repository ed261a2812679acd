import type { CloudEvent, CloudTaskDetail } from "@lathe/protocol";
import { useCallback, useEffect, useRef, useState } from "react";
import { cloudApi } from "../api/cloudApi.js";
import { type CloudFeedStatus, connectCloudEvents } from "../api/cloudEvents.js";
import { describeFailure } from "../displayFormat.js";

export interface CloudTaskView {
  detail?: CloudTaskDetail;
  /** Every event of the task so far, in seq order, each once. */
  events: CloudEvent[];
  feed: CloudFeedStatus;
  failure?: string;
  /** Reads the task and its steps again (after an answer, a cancel, an apply). */
  reload(): void;
}

/**
 * A task's live view: its record and steps, and its events from the first on. Log lines are only
 * appended; any other event (a status, a step claimed, a question, an answer, a result) changes
 * the task or a step, so the record is read again — one read at a time, the last one repeated
 * when more changed meanwhile. Events arriving together are shown in one render per frame.
 */
export function useCloudTask(taskId: string): CloudTaskView {
  const [detail, setDetail] = useState<CloudTaskDetail>();
  const [events, setEvents] = useState<CloudEvent[]>([]);
  const [feed, setFeed] = useState<CloudFeedStatus>("connecting");
  const [failure, setFailure] = useState<string>();
  const load = useRef<() => void>(() => undefined);

  useEffect(() => {
    let closed = false;
    let lastSeq = 0;
    let loading = false;
    let again = false;
    let pending: CloudEvent[] = [];
    let frame: number | undefined;
    setDetail(undefined);
    setEvents([]);
    setFailure(undefined);

    const read = async () => {
      if (loading) {
        again = true;
        return;
      }
      loading = true;
      try {
        do {
          again = false;
          const loaded = await cloudApi.task(taskId);
          if (closed) return;
          setDetail(loaded);
          setFailure(undefined);
        } while (again && !closed);
      } catch (error) {
        if (!closed) setFailure(describeFailure(error));
      } finally {
        loading = false;
      }
    };
    load.current = () => void read();

    const flush = () => {
      frame = undefined;
      const arrived = pending;
      pending = [];
      setEvents((shown) => [...shown, ...arrived]);
      if (arrived.some((event) => event.kind !== "log")) void read();
    };
    const connection = connectCloudEvents(taskId, () => lastSeq, {
      onEvent: (event) => {
        // A reconnect resumes after the last seq; anything at or before it is already shown.
        if (event.seq <= lastSeq) return;
        lastSeq = event.seq;
        pending.push(event);
        frame ??= requestAnimationFrame(flush);
      },
      onStatus: (status) => {
        if (!closed) setFeed(status);
      },
    });
    void read();
    return () => {
      closed = true;
      if (frame !== undefined) cancelAnimationFrame(frame);
      connection.close();
    };
  }, [taskId]);

  const reload = useCallback(() => load.current(), []);
  return { detail, events, feed, failure, reload };
}
