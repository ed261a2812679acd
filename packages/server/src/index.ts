export {
  type EventStream,
  type EventStreamOptions,
  eventLatencies,
  isEvent,
  openEventStream,
  percentile,
  type ReceivedMessage,
} from "./eventClient.js";
export type { SessionCreated, SessionFactory, SessionRequest } from "./sessionFactory.js";
export { type RunningServer, type ServerOptions, startServer } from "./startServer.js";
export {
  type CheckpointRestored,
  type McpServerChange,
  type McpServerEntry,
  type RejectParts,
  type RestoreParts,
  type ServiceError,
  type ServiceFailureKind,
  type ServiceResult,
  served,
  serviceError,
  type WorkspaceServices,
} from "./workspaceServices.js";
