import { Session } from "node:inspector";
import { setFlagsFromString } from "node:v8";

type AnyFunction = (...args: never[]) => unknown;

/**
 * Compiles the bundle's functions that start at `positions` (character offsets in the bundle, as
 * V8 reports them) while the start-up image is built, so that the image holds their bytecode.
 * Without this every start parses and compiles again the ~600 functions a `lathe -p` run calls
 * before its first request (~20 ms); the build learns which they are from a training run of the
 * image itself (scripts/build-snapshot.mjs). `marker` is any function of the bundle: it tells the
 * bundle's functions from Node's own. Returns how many were compiled, or why none were.
 *
 * Only functions that exist when the image is built can be reached (those of modules evaluated then,
 * and their classes' methods); closures a run creates anew are compiled when first called, as before.
 */
export function precompileHotFunctions(positions: ReadonlySet<number>, marker: AnyFunction): number | string {
  const functions = everyFunction();
  if (typeof functions === "string") return functions;
  const natives = v8Natives();
  if (typeof natives === "string") return natives;
  const script = natives.scriptId(marker);
  let compiled = 0;
  for (const candidate of functions) {
    if (natives.scriptId(candidate) !== script || !positions.has(natives.position(candidate))) continue;
    try {
      natives.compile(candidate);
      compiled += 1;
    } catch {
      // A function V8 will not compile ahead (a class constructor it compiles with its class): it
      // compiles on first call, as it would have anyway.
    }
  }
  return compiled;
}

/** Every function in the heap, from the inspector's heap query: the build's own process only. */
function everyFunction(): AnyFunction[] | string {
  const session = new Session();
  session.connect();
  try {
    const post = (method: string, params: object): Record<string, unknown> | undefined => {
      let reply: Record<string, unknown> | undefined;
      // The in-process session answers before post() returns.
      session.post(method, params, (error, result) => {
        if (!error) reply = result as Record<string, unknown>;
      });
      return reply;
    };
    const prototype = post("Runtime.evaluate", { expression: "Function.prototype" }) as
      | { result: { objectId?: string } }
      | undefined;
    const prototypeId = prototype?.result.objectId;
    if (prototypeId === undefined) return "the inspector did not answer";
    const query = post("Runtime.queryObjects", { prototypeObjectId: prototypeId }) as
      | { objects: { objectId?: string } }
      | undefined;
    const listId = query?.objects.objectId;
    if (listId === undefined) return "the inspector could not list the heap's functions";
    let found: AnyFunction[] = [];
    const take = (list: AnyFunction[]) => {
      found = list;
    };
    const holder = globalThis as { __latheTakeFunctions?: typeof take };
    holder.__latheTakeFunctions = take;
    post("Runtime.callFunctionOn", {
      functionDeclaration: "function () { globalThis.__latheTakeFunctions(this); }",
      objectId: listId,
    });
    delete holder.__latheTakeFunctions;
    return found.length > 0 ? found : "the inspector listed no functions";
  } finally {
    session.disconnect();
  }
}

interface V8Natives {
  scriptId(fn: AnyFunction): number;
  position(fn: AnyFunction): number;
  compile(fn: AnyFunction): void;
}

/** V8's own intrinsics, allowed just long enough to compile the calls to them. */
function v8Natives(): V8Natives | string {
  setFlagsFromString("--allow-natives-syntax");
  try {
    return {
      scriptId: new Function("fn", "return %FunctionGetScriptId(fn)") as V8Natives["scriptId"],
      position: new Function("fn", "return %FunctionGetScriptSourcePosition(fn)") as V8Natives["position"],
      // Compiles the function's bytecode, then Sparkplug's code from it.
      compile: new Function("fn", "%CompileBaseline(fn)") as V8Natives["compile"],
    };
  } catch (error) {
    return `this Node's V8 lacks an intrinsic: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    setFlagsFromString("--no-allow-natives-syntax");
  }
}
