import { describe, expect, it } from "vitest";
import { queryTerms } from "../../src/codeIntel/search/queryTerms.js";
import { stem } from "../../src/codeIntel/search/stem.js";
import { nameParts, tokenize } from "../../src/codeIntel/search/tokenize.js";

describe("tokenize", () => {
  it("splits identifiers at camelCase, acronyms, digits and underscores, and keeps the whole name", () => {
    expect(tokenize("createSourceFile")).toEqual(["creat", "sourc", "fil", "createsourcefile"]);
    expect(tokenize("parseJSONSchema")).toEqual(["pars", "json", "schema", "parsejsonschema"]);
    expect(tokenize("read_config_file")).toEqual(["read", "config", "fil", "readconfigfile"]);
    expect(tokenize("utf8Decode")).toEqual(["utf8", "decod", "utf8decode"]);
  });

  it("matches the words of a sentence with the parts of a name", () => {
    const name = new Set(tokenize("createSourceFile"));
    expect(tokenize("create a source file").every((term) => name.has(term))).toBe(true);
  });

  it("drops stop words, single letters and bare numbers", () => {
    expect(tokenize("how is the value of x in 42 returned")).toEqual(["valu", "return"]);
  });

  it("names' parts leave out the whole-name term", () => {
    expect(nameParts("isSameOrigin")).toEqual(["sam", "origin"]);
  });
});

describe("stem", () => {
  it("makes inflections of a word one term", () => {
    for (const group of [
      ["parse", "parses", "parsing", "parsed"],
      ["file", "files"],
      ["retry", "retries"],
      ["set", "setting"],
    ]) {
      expect(new Set(group.map(stem)).size).toBe(1);
    }
  });

  it("leaves short words and words with digits alone", () => {
    expect(stem("use")).toBe("use");
    expect(stem("sha256s")).toBe("sha256s");
  });
});

describe("queryTerms", () => {
  it("adds the abbreviations of words, and the words of abbreviations, at half weight", () => {
    expect(queryTerms("escape a regular expression")).toEqual([
      { term: "escap", weight: 1 },
      { term: "regular", weight: 1 },
      { term: "expression", weight: 1 },
      { term: "regex", weight: 0.5 },
    ]);
    expect(queryTerms("load env")).toEqual([
      { term: "load", weight: 1 },
      { term: "env", weight: 1 },
      { term: "environment", weight: 0.5 },
    ]);
  });
});
