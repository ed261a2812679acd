import { describe, expect, it } from "vitest";
import { extractSymbols, type SymbolInfo } from "../../src/codeIntel/index.js";
import { parseFile } from "../../src/codeIntel/parsing/parseFile.js";

/** kind, name, first line, last line: what the lists below compare. */
type Row = [string, string, number, number];

async function rows(path: string, source: string): Promise<Row[]> {
  const result = await extractSymbols(path, source);
  if (result === undefined) throw new Error(`${path}: unsupported`);
  return result.symbols.map((symbol: SymbolInfo) => [
    symbol.kind,
    symbol.name,
    symbol.startLine,
    symbol.endLine,
  ]);
}

const typescript = `import { x } from "y";
/** Parses things. */
export function parseThing(input: string): Thing {
  return helper(input);
}
export function over(a: string): void;
export function over(a: number): void;
export function over(a: unknown): void {}
export const helper = (value: string) => value.trim();
const limit = 10;
@sealed
export abstract class Parser<T> extends Base implements Api {
  private count = 0;
  handle = (event: Event) => this.parseThing(event);
  constructor(readonly name: string) { super(); }
  /** Next token. */
  next(): T { return this.peek(); }
  abstract peek(): T;
}
export interface Thing { id: string; run(): void }
export type Id = string | number;
enum Color { Red, Green }
namespace Inner { export function nested() { return limit; } }
declare module "ext" { function ambient(): void; }
export const settings = { retries: 3 };
`;

describe("extractSymbols", () => {
  it("finds TypeScript functions, overloads once, classes with their members, types and namespaces", async () => {
    expect(await rows("src/a.ts", typescript)).toEqual([
      ["function", "parseThing", 3, 5],
      ["function", "over", 6, 8],
      ["function", "helper", 9, 9],
      ["class", "Parser", 11, 19],
      ["method", "handle", 14, 14],
      ["method", "constructor", 15, 15],
      ["method", "next", 17, 17],
      ["method", "peek", 18, 18],
      ["interface", "Thing", 20, 20],
      ["type", "Id", 21, 21],
      ["enum", "Color", 22, 22],
      ["namespace", "Inner", 23, 23],
      ["function", "nested", 23, 23],
      ["namespace", "ext", 24, 24],
      ["function", "ambient", 24, 24],
      ["variable", "settings", 25, 25],
    ]);
  });

  it("gives one-line signatures: up to the body, decorators dropped, export kept", async () => {
    const result = await extractSymbols("src/a.ts", typescript);
    const signature = (name: string) => result?.symbols.find((symbol) => symbol.name === name)?.signature;
    expect(signature("parseThing")).toBe("export function parseThing(input: string): Thing");
    expect(signature("helper")).toBe("export const helper = (value: string) =>");
    expect(signature("Parser")).toBe("export abstract class Parser<T> extends Base implements Api");
    expect(signature("Id")).toBe("export type Id = string | number;");
    expect(signature("ambient")).toBe("function ambient(): void;");
    expect(result?.symbols[0]?.path).toBe("src/a.ts");
  });

  it("cuts long signatures to about 160 characters", async () => {
    const parameters = Array.from({ length: 30 }, (_, i) => `argument${i}: string`).join(", ");
    const result = await extractSymbols("long.ts", `function long(${parameters}) {}\n`);
    const signature = result?.symbols[0]?.signature ?? "";
    expect(signature).toHaveLength(160);
    expect(signature.endsWith("…")).toBe(true);
  });

  it("finds TSX components", async () => {
    const source = `export function Button({ label }: Props) { return <button>{label}</button>; }
export const Card = ({ title }: { title: string }) => <div>{title}</div>;
class Panel extends React.Component { render() { return <Card title="x" />; } }
`;
    expect(await rows("ui/Button.tsx", source)).toEqual([
      ["function", "Button", 1, 1],
      ["function", "Card", 2, 2],
      ["class", "Panel", 3, 3],
      ["method", "render", 3, 3],
    ]);
  });

  it("finds JavaScript functions, CommonJS assignments and classes", async () => {
    const source = `const fs = require("fs");
function readConfig(path) { return JSON.parse(fs.readFileSync(path)); }
exports.load = function load(path) { return readConfig(path); };
Loader.prototype.next = function () { return 1; };
class Loader { #secret = 1; static create() { return new Loader(); } get size() { return 0; } }
export default async function* stream() {}
`;
    expect(await rows("lib/config.js", source)).toEqual([
      ["function", "readConfig", 2, 2],
      ["function", "load", 3, 3],
      ["function", "next", 4, 4],
      ["class", "Loader", 5, 5],
      ["method", "create", 5, 5],
      ["method", "size", 5, 5],
      ["function", "stream", 6, 6],
    ]);
  });

  it("finds Python functions and classes, decorators included, nested functions left out", async () => {
    const source = `import os

# Reads the config.
def read_config(path: str) -> dict:
    """Read it."""
    return load(path)

@dataclass
class Config(Base):
    name: str = ""

    @property
    def size(self) -> int:
        return len(self.name)

    async def refresh(self):
        def inner():
            pass
        return inner
`;
    expect(await rows("app/config.py", source)).toEqual([
      ["function", "read_config", 4, 6],
      ["class", "Config", 8, 19],
      ["method", "size", 12, 14],
      ["method", "refresh", 16, 19],
    ]);
    const result = await extractSymbols("app/config.py", source);
    expect(result?.symbols[1]?.signature).toBe("class Config(Base):");
  });

  it("finds Go functions, methods, structs, interfaces and grouped types", async () => {
    const source = `package main

// Server serves.
type Server struct {
	addr string
}

type Handler interface {
	Serve()
}

type (
	ID int
	Name = string
)

func NewServer(addr string) *Server {
	return &Server{addr: addr}
}

func (s *Server) Start() error {
	return nil
}
`;
    expect(await rows("cmd/server.go", source)).toEqual([
      ["struct", "Server", 4, 6],
      ["interface", "Handler", 8, 10],
      ["type", "ID", 13, 13],
      ["type", "Name", 14, 14],
      ["function", "NewServer", 17, 19],
      ["method", "Start", 21, 23],
    ]);
    const result = await extractSymbols("cmd/server.go", source);
    expect(result?.symbols.at(-1)?.signature).toBe("func (s *Server) Start() error");
  });

  it("finds Rust items, trait and impl members, modules and macros", async () => {
    const source = `use std::fmt;

/// A point.
#[derive(Debug)]
pub struct Point { x: i32 }

pub enum Shape { Circle }

pub trait Draw {
    fn draw(&self);
    fn name(&self) -> String { String::new() }
}

impl Draw for Point {
    fn draw(&self) {}
}

impl<T> Wrapper<T> {
    pub fn new(value: T) -> Self { Wrapper { value } }
}

mod util {
    pub fn helper() {}
}

macro_rules! square { ($x:expr) => { $x * $x }; }

type Pair = (i32, i32);

fn main() { let p = Point { x: 1 }; p.draw(); }
`;
    expect(await rows("src/lib.rs", source)).toEqual([
      ["struct", "Point", 5, 5],
      ["enum", "Shape", 7, 7],
      ["trait", "Draw", 9, 12],
      ["method", "draw", 10, 10],
      ["method", "name", 11, 11],
      ["impl", "Point", 14, 16],
      ["method", "draw", 15, 15],
      ["impl", "Wrapper", 18, 20],
      ["method", "new", 19, 19],
      ["module", "util", 22, 24],
      ["function", "helper", 23, 23],
      ["macro", "square", 26, 26],
      ["type", "Pair", 28, 28],
      ["function", "main", 30, 30],
    ]);
    const result = await extractSymbols("src/lib.rs", source);
    expect(result?.symbols[5]?.signature).toBe("impl Draw for Point");
  });

  it("finds Java classes, constructors, methods, nested types and enum methods", async () => {
    const source = `package demo;

/** A greeter. */
public class Greeter<T> extends Base implements Api {
    private final String name;

    public Greeter(String name) { this.name = name; }

    @Override
    public String greet(String who) {
        return "Hello " + who;
    }

    interface Listener { void on(); }

    enum Mode { LOUD, QUIET; Mode flip() { return this; } }

    record Pair(int a, int b) { int sum() { return a + b; } }
}

@interface Marker {}
`;
    expect(await rows("src/demo/Greeter.java", source)).toEqual([
      ["class", "Greeter", 4, 19],
      ["constructor", "Greeter", 7, 7],
      ["method", "greet", 9, 12],
      ["interface", "Listener", 14, 14],
      ["enum", "Mode", 16, 16],
      ["method", "flip", 16, 16],
      ["record", "Pair", 18, 18],
      ["method", "sum", 18, 18],
      ["annotation", "Marker", 21, 21],
    ]);
    const result = await extractSymbols("src/demo/Greeter.java", source);
    expect(result?.symbols[2]?.signature).toBe("public String greet(String who)");
  });

  it("counts identifier uses per file, leaving out the names that define symbols", async () => {
    const source = `export function parse(text: string): Tree {
  const tree = tokenize(text);
  return check(tree) ? tree : tokenize("");
}
function tokenize(text: string): Tree { return { text } as Tree; }
`;
    const result = await extractSymbols("parse.ts", source);
    expect(Object.fromEntries(result?.references ?? [])).toEqual({
      text: 4,
      Tree: 3,
      tree: 3,
      tokenize: 2,
      check: 1,
    });
  });

  it("merges a namespace written in two blocks, keeping the members of both", async () => {
    const source = "namespace N { export function a() {} }\nnamespace N { export function b() {} }\n";
    expect(await rows("n.ts", source)).toEqual([
      ["namespace", "N", 1, 2],
      ["function", "a", 1, 1],
      ["function", "b", 2, 2],
    ]);
  });

  it("returns undefined for languages without a grammar", async () => {
    expect(await extractSymbols("README.md", "# Title\n")).toBeUndefined();
    expect(await extractSymbols("data.json", "{}")).toBeUndefined();
  });

  it("survives a file with syntax errors", async () => {
    const result = await extractSymbols("broken.ts", "export function ok() {}\nfunction broken( {\n");
    expect(result?.symbols.map((symbol) => symbol.name)).toContain("ok");
  });
});

describe("symbol visibility", () => {
  const visibilities = async (path: string, source: string) =>
    (await parseFile(path, source))?.symbols.map((symbol) => [symbol.name, symbol.visibility]);

  it("TypeScript: exported and public members reach the project; the rest stays in the file", async () => {
    const source = `export function shown() {}
function hidden() {}
export class Box { private inner() {} #secret() {} open() {} }
`;
    expect(await visibilities("a.ts", source)).toEqual([
      ["shown", "project"],
      ["hidden", "file"],
      ["Box", "project"],
      ["inner", "file"],
      ["#secret", "file"],
      ["open", "project"],
    ]);
    // A file that exports nothing (CommonJS, a script) is not judged by its missing exports.
    expect(await visibilities("b.js", "function helper() {}\nmodule.exports = { helper };\n")).toEqual([
      ["helper", "project"],
    ]);
  });

  it("Python, Go, Rust and Java use their own markers", async () => {
    expect(
      await visibilities(
        "m.py",
        "def _private(): pass\ndef public(): pass\nclass A:\n    def __init__(self): pass\n",
      ),
    ).toEqual([
      ["_private", "file"],
      ["public", "project"],
      ["A", "project"],
      ["__init__", "project"],
    ]);
    expect(await visibilities("m.go", "package m\nfunc Exported() {}\nfunc local() {}\n")).toEqual([
      ["Exported", "project"],
      ["local", "directory"],
    ]);
    expect(
      await visibilities(
        "m.rs",
        "pub fn open() {}\nfn shut() {}\nimpl Drop for X { fn drop(&mut self) {} }\n",
      ),
    ).toEqual([
      ["open", "project"],
      ["shut", "file"],
      ["X", "project"],
      ["drop", "project"],
    ]);
    const java = "public class A { private void a() {} void b() {} protected void c() {} }\n";
    expect(await visibilities("A.java", java)).toEqual([
      ["A", "project"],
      ["a", "file"],
      ["b", "directory"],
      ["c", "project"],
    ]);
  });
});
