/** One rule as the model sees it; `source` is shown when it says more than the name. */
export interface RuleEntry {
  name: string;
  source?: string;
  content: string;
}

export function ruleOpening(entry: RuleEntry): string {
  const source =
    entry.source !== undefined && entry.source !== entry.name ? ` source="${attribute(entry.source)}"` : "";
  return `<rule name="${attribute(entry.name)}"${source}>`;
}

export const ruleClosing = "</rule>";

/** A rule's text with closing tags defused, so a rule file cannot end its block early. */
export function ruleBody(content: string): string {
  return content.replace(/<\/(rule)/gi, "<\\/$1");
}

function attribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}
