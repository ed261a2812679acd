/**
 * A section of the prompt between `<tag>` and `</tag>`. Text inside comes from project files and
 * the database, so a closing tag inside it is defused: otherwise a rule file could end its
 * section early and write text that looks like it comes from outside the section.
 */
export function taggedSection(tag: string, body: string): string {
  const closing = new RegExp(`</(${tag})`, "gi");
  return `<${tag}>\n${body.replace(closing, "<\\/$1")}\n</${tag}>`;
}
