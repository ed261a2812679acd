/**
 * The message that runs a saved plan in agent mode: the same for `lathe -p --plan FILE` and a
 * face's "Run this plan", so the model is asked the same way wherever the user starts it.
 */
export function planRunPrompt(markdown: string, source: string): string {
  return `Carry out this plan (saved in ${source}). Work through its steps in order, keep the todo list up to date as you go, and check the result when you are done.\n\n${markdown.trim()}\n`;
}
