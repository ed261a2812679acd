// Put in front of the bundle that becomes `lathe`'s start-up snapshot (scripts/build-snapshot.mjs).
// While the snapshot is built, Node can load only its own modules: a package loaded then would
// leave the module loader in a state the snapshot cannot restore. So every way the bundle has of
// loading a package (its own `require`, `createRequire` of node:module) refuses while building —
// as if the package were missing, which the optional loads in the bundle (fdir's picomatch,
// linkedom's canvas) already handle — and at run time loads from node_modules beside this file.
// Built-in modules that hold native handles a snapshot cannot keep are loaded on first use.
const __snapshotLoading = (() => {
  const builtinRequire = require;
  const nodeModule = builtinRequire("node:module");
  const building = () => builtinRequire("node:v8").startupSnapshot.isBuildingSnapshot();
  const refuse = (id) =>
    Object.assign(new Error(`${id} cannot be loaded while the start-up snapshot is built`), {
      code: "MODULE_NOT_FOUND",
    });
  const lazyCreateRequire = (from) => {
    let real;
    const load = (specifier) => {
      // What were dynamic imports arrive here too, some with file: URLs.
      const id = specifier.startsWith("file:")
        ? builtinRequire("node:url").fileURLToPath(specifier)
        : specifier;
      if (nodeModule.isBuiltin(id)) return builtinRequire(id);
      if (building()) throw refuse(id);
      real ??= nodeModule.createRequire(from);
      return real(id);
    };
    load.resolve = (id, options) => {
      if (building()) throw refuse(id);
      real ??= nodeModule.createRequire(from);
      return real.resolve(id, options);
    };
    return load;
  };
  const moduleStandIn = { ...nodeModule, createRequire: lazyCreateRequire };
  moduleStandIn.default = moduleStandIn;
  const deferredBuiltin = (name, keys) => {
    let loaded;
    const real = () => {
      loaded ??= builtinRequire(name);
      return loaded;
    };
    return new Proxy(Object.create(null), {
      get: (_, key) => real()[key],
      has: (_, key) => key in real(),
      ownKeys: () => keys,
      getOwnPropertyDescriptor: (_, key) =>
        keys.includes(key) ? { configurable: true, enumerable: true, get: () => real()[key] } : undefined,
    });
  };
  // The environment belongs to each run: a module of the bundle that reads it as it loads would
  // carry the builder's into every process started from the snapshot. Such a read fails the
  // build (Node's own modules read what they need of it, and refresh it when a process starts).
  // Reviewed reads: thread-stream (pino's) picks its FinalizationRegistry by NODE_V8_COVERAGE,
  // which only coverage runs set; tinyglobby's debug logging, off unless set for the build; the
  // AI SDK's default OpenAI and Anthropic instances, made as their packages load and never used
  // (Lathe makes its own per request, which read the base URLs then).
  const reviewedReads = ["NODE_V8_COVERAGE", "TINYGLOBBY_DEBUG", "OPENAI_BASE_URL", "ANTHROPIC_BASE_URL"];
  if (building()) {
    const env = process.env;
    process.env = new Proxy(env, {
      get(target, key) {
        const caller = new Error().stack?.split("\n")[2] ?? "";
        if (typeof key === "string" && caller.includes(__filename) && !reviewedReads.includes(key)) {
          throw new Error(
            `process.env.${key} was read while the start-up snapshot was built: read it when the command runs`,
          );
        }
        return target[key];
      },
    });
    builtinRequire("node:v8").startupSnapshot.addSerializeCallback(() => {
      process.env = env;
    });
  }
  const runtimeRequire = lazyCreateRequire(__filename);
  // What `import(specifier)` gives, for the dynamic imports the bundle could not resolve itself
  // (a snapshot has no dynamic import callback): Node's require of an ES module gives its namespace.
  const importModule = async (specifier) => {
    const loaded = runtimeRequire(specifier);
    return loaded?.[Symbol.toStringTag] === "Module" ? loaded : { ...loaded, default: loaded };
  };
  return { require: runtimeRequire, import: importModule, moduleStandIn, deferredBuiltin };
})();
