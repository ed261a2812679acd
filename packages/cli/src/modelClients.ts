import { createModelClient, type ModelClientCreation } from "@lathe/core";
import type { UserSettings } from "./userSettings.js";

/** A client for a `provider:model` id with the user's base URLs and retry timings. */
export function clientFor(
  modelId: string,
  where: { settings: UserSettings; env: Record<string, string | undefined>; latheHome: string },
): ModelClientCreation {
  const provider = modelId.split(":")[0] ?? "";
  return createModelClient({
    modelId,
    baseUrl: where.settings.baseUrls?.[provider],
    baseUrls: where.settings.baseUrls,
    env: where.env,
    latheHome: where.latheHome,
    retry: where.settings.llm,
  });
}
