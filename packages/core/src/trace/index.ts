export {
  createLogger,
  type LogFields,
  type Logger,
  type LoggerSettings,
  type LogLevel,
  logFilePath,
} from "./logger.js";
export { RunTracer, type RunTracerSettings } from "./runTracer.js";
export { traceFilePath } from "./spanExporters.js";
export { formatSpanTree } from "./spanTree.js";
