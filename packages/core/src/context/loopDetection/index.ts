export { canonicalJson } from "./canonicalJson.js";
export { LoopDetector } from "./loopDetector.js";
export { defaultLoopSettings, type LoopSettings, type LoopVerdict } from "./loopSettings.js";
