/** What a command writes on its standard output, for the next stage of a pipeline. */
export interface StageOutput {
  downloads: boolean;
  text?: string;
}

export const noOutput: StageOutput = { downloads: false };
