import type { SearchProviderName } from "../../web/webSearchSettings.js";
import { braveProvider } from "./providers/brave.js";
import { duckDuckGoProvider } from "./providers/duckDuckGo.js";
import { googleCseProvider } from "./providers/googleCse.js";
import { searxngProvider } from "./providers/searxng.js";
import { tavilyProvider } from "./providers/tavily.js";
import type { SearchProvider } from "./searchProvider.js";

export const searchProviders: Record<SearchProviderName, SearchProvider> = {
  searxng: searxngProvider,
  brave: braveProvider,
  tavily: tavilyProvider,
  google: googleCseProvider,
  duckduckgo: duckDuckGoProvider,
};
