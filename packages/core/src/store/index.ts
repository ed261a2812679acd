export { openDatabase, writeEmptyDatabase } from "./database.js";
export { type MemoryBook, type MemoryEntry, memoryPromptLimits, SqliteMemoryBook } from "./memoryRecords.js";
export { SessionStore, type SessionStoreOptions, type StoreOutcome } from "./sessionStore.js";
export { exportSession, importSession } from "./sessionTransfer.js";
export { uniquePrefixes } from "./shortIds.js";
export type {
  CheckpointReason,
  CheckpointRecord,
  NewSession,
  RunRecord,
  RunStatus,
  SessionInfo,
  ToolCallRecord,
} from "./storeRecords.js";
export { loadTodos, saveTodos } from "./todoRecords.js";
