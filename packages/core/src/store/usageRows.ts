import type { Usage } from "@lathe/protocol";

/** The SQL that sums usage rows into the columns `usageFromRow` reads. */
export const usageSums = `
  COALESCE(SUM(input_tokens), 0) AS input_tokens,
  COALESCE(SUM(output_tokens), 0) AS output_tokens,
  COALESCE(SUM(cached_input_tokens), 0) AS cached_input_tokens,
  COALESCE(SUM(reasoning_tokens), 0) AS reasoning_tokens,
  COALESCE(SUM(cost_usd), 0) AS cost_usd`;

export interface UsageColumns {
  input_tokens: number;
  output_tokens: number;
  cached_input_tokens: number;
  reasoning_tokens: number;
  cost_usd: number;
}

export function usageFromRow(row: UsageColumns | undefined): Usage {
  return {
    inputTokens: Number(row?.input_tokens ?? 0),
    outputTokens: Number(row?.output_tokens ?? 0),
    cachedInputTokens: Number(row?.cached_input_tokens ?? 0),
    reasoningTokens: Number(row?.reasoning_tokens ?? 0),
    costUsd: Number(row?.cost_usd ?? 0),
  };
}
