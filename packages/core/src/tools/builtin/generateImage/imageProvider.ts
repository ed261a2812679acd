import type { LatheErrorInfo } from "@lathe/protocol";
import type { ImageSize } from "../../web/imageSettings.js";
import type { ImageCall } from "./imageRequest.js";

export interface ImageRequest {
  prompt: string;
  size: ImageSize;
}

export type GeneratedImage =
  | {
      ok: true;
      bytes: Buffer /** The prompt as the provider rewrote it, when it says. */;
      revisedPrompt?: string;
    }
  | { ok: false; error: LatheErrorInfo };

/** A configured image service: one call, one image. */
export interface ImageProvider {
  label: string;
  generate(request: ImageRequest, call: ImageCall): Promise<GeneratedImage>;
}
