import type { WebFetchSettings } from "../../web/webFetchSettings.js";
import type { WebSearchSettings } from "../../web/webSearchSettings.js";
import type { ImageGenerationSettings } from "./imageSettings.js";

/**
 * The settings.json keys of the three web tools, as one type for whoever reads the user's
 * settings. Each tool takes only its own part, through its factory:
 * `webSearchTool(() => s.webSearch ?? {})`, `webFetchTool(() => s.webFetch ?? {})`,
 * `generateImageTool(() => s.imageGeneration)`. It lives in this folder because this one already
 * depends on the other two (webFetch ← webSearch ← generateImage): no import runs backwards.
 */
export interface WebToolSettings {
  webSearch?: WebSearchSettings;
  webFetch?: WebFetchSettings;
  /** Absent: generate_image is off and says how to turn it on. */
  imageGeneration?: ImageGenerationSettings;
}
