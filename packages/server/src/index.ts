export type { CloudAnswer, CloudFeedHandlers, CloudServices, CloudTaskRequest } from "./cloudServices.js";
export {
  type EventStream,
  type EventStreamOptions,
  eventLatencies,
  isEvent,
  openEventStream,
  percentile,
  type ReceivedMessage,
} from "./eventClient.js";
export {
  type ServiceError,
  type ServiceFailureKind,
  type ServiceResult,
  served,
  serviceError,
} from "./serviceResult.js";
export type { SessionCreated, SessionFactory, SessionRequest } from "./sessionFactory.js";
export { type RunningServer, type ServerOptions, startServer } from "./startServer.js";
export type {
  CheckpointRestored,
  McpServerChange,
  McpServerEntry,
  RejectParts,
  RestoreParts,
  WorkspaceServices,
} from "./workspaceServices.js";
