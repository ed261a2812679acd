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
  type PendingApproval,
  type PendingQuestion,
  pendingApprovalSchema,
  pendingQuestionSchema,
  type ServerMessage,
  type StreamMessage,
  serverMessageSchema,
  streamMessageSchema,
} from "./serverMessages.js";
export type { SessionCreated, SessionFactory, SessionRequest } from "./sessionFactory.js";
export { type RunningServer, type ServerOptions, startServer } from "./startServer.js";
