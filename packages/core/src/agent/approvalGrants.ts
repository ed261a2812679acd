import { callSubjects } from "../policy/callSubjects.js";
import type { PermissionRule } from "../policy/policyTypes.js";
import { ruleForApproval, saveRule } from "../policy/rules/index.js";
import type { AnyTool } from "../tools/tool.js";
import type { ApprovalScope } from "../tools/toolApproval.js";
import { keepTrustAcrossOwnWrite } from "../trust/index.js";
import type { SessionStorage } from "./sessionStorage.js";

/**
 * What the user granted in this session: rules from "always" answers (saved at the scope they
 * chose, and in force at once) and the sandbox grants of single calls — the network, or a run
 * outside the sandbox. Only the engine adds to them, never a tool or the model.
 */
export class ApprovalGrants {
  private readonly sessionRules: PermissionRule[] = [];
  /** Calls approved to use the network inside the sandbox, by call id. */
  readonly networkCallIds = new Set<string>();
  /** Calls approved to run again outside the sandbox after it blocked them, by call id. */
  readonly unsandboxedCallIds = new Set<string>();

  constructor(
    private readonly options: {
      sessionId: string;
      projectRoot: string;
      latheHome: string;
      /** Permission rules from every settings layer. */
      rules: readonly PermissionRule[] | undefined;
      storage: SessionStorage;
    },
  ) {}

  /** Rules in force: the loaded layers plus what "always" answers granted in this session. */
  rules(): readonly PermissionRule[] {
    return [...(this.options.rules ?? []), ...this.sessionRules];
  }

  /** What an "always" answer to this call would save, shown in the request; undefined: not offered. */
  alwaysRules(tool: AnyTool, args: unknown): string[] | undefined {
    const derived = ruleForApproval(tool.name, callSubjects(tool.name, args), this.locations());
    return derived.ok ? derived.rules : undefined;
  }

  /**
   * Remembers an "always" answer: the very rules the request showed, saved at the scope the user
   * chose, as allow rules, or as deny rules when the answer was "reject always".
   */
  async grantAlways(
    rules: readonly string[],
    scope: ApprovalScope,
    behavior: "allow" | "deny",
  ): Promise<void> {
    const locations = { ...this.locations(), behavior };
    for (const text of rules) {
      const saved =
        scope === "project-local"
          ? await keepTrustAcrossOwnWrite(locations, () => saveRule(text, scope, locations))
          : await saveRule(text, scope, locations);
      if (!saved.ok) continue;
      this.sessionRules.push(saved.rule);
      if (behavior === "allow")
        this.options.storage.write((store) => store.addGrantedRule(this.options.sessionId, text, scope));
    }
  }

  private locations(): { projectRoot: string; latheHome: string } {
    return { projectRoot: this.options.projectRoot, latheHome: this.options.latheHome };
  }
}
