export { ChangesView, type ChangesViewProps } from "./ChangesView.js";
export { CheckpointList, type CheckpointListProps } from "./CheckpointList.js";
export { checkpointLabel } from "./checkpointLabel.js";
export { FileTree, type FileTreeProps } from "./FileTree.js";
export { SessionList, type SessionListProps } from "./SessionList.js";
export { SettingsPanel, type SettingsPanelProps } from "./SettingsPanel.js";
export { TraceView, type TraceViewProps } from "./TraceView.js";
export {
  describeSpan,
  layoutTrace,
  type SpanDescription,
  type TraceRow,
  type TraceRun,
} from "./traceTree.js";
