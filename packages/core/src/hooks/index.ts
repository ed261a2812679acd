export {
  type ConfiguredHook,
  type HookConfigError,
  type HooksFile,
  hooksFileSchema,
  type LoadedHooks,
  loadHooks,
  loadHooksFile,
  parseHooksConfig,
} from "./hookConfig.js";
export {
  type HookEvent,
  type HookEventInput,
  type HookEventInputs,
  hookEvents,
  isHookEvent,
} from "./hookEvents.js";
export { compileMatcher, type HookMatcher } from "./hookMatcher.js";
export { type HookPermissionDecision, hookJsonOutputSchema } from "./hookOutput.js";
export {
  DEFAULT_HOOK_OUTPUT_CAP_BYTES,
  DEFAULT_HOOK_TIMEOUT_SECONDS,
  type HookOutcome,
  type RunHooksOptions,
  runHooks,
} from "./runHooks.js";
