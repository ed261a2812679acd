import { describe, expect, it } from "vitest";
import { planFileNames, planSlug } from "../../src/planning/planFileName.js";
import { planTitle, renderPlan } from "../../src/planning/planMarkdown.js";

describe("plan file names and titles", () => {
  it("makes a short ASCII slug from the task", () => {
    expect(planSlug("Add a farewell function to greet.js")).toBe("add-a-farewell-function-to-greet");
    expect(planSlug("Réécrire le café: ÉTAPE 2")).toBe("reecrire-le-cafe-etape-2");
    expect(planSlug("重构解析器")).toBe("plan");
    expect(planSlug("internationalization localization containerization orchestration")).toBe(
      "internationalization-localization",
    );
  });

  it("names plans by day and slug, then numbers the next ones", () => {
    const names = planFileNames("Fix the bug", new Date(2025, 0, 9, 23, 59));
    expect([names.next().value, names.next().value, names.next().value]).toEqual([
      "2025-01-09-fix-the-bug.md",
      "2025-01-09-fix-the-bug-2.md",
      "2025-01-09-fix-the-bug-3.md",
    ]);
  });

  it("titles a plan with the task's first line and renders every todo status", () => {
    expect(planTitle("\n  Plan   the\tmigration \nwith details")).toBe("Plan the migration");
    expect(planTitle("x".repeat(100))).toBe(`${"x".repeat(79)}…`);
    expect(
      renderPlan({
        title: "T",
        answer: "\nDo it.\n",
        todos: [
          { id: "1", content: "a", status: "completed" },
          { id: "2", content: "b", status: "in_progress" },
          { id: "3", content: "c", status: "pending" },
          { id: "4", content: "d", status: "cancelled" },
        ],
      }),
    ).toBe(
      "# Plan: T\n\nDo it.\n\n## Todos\n\n- [x] a\n- [ ] b (in progress)\n- [ ] c\n- [ ] ~~d~~ (cancelled)\n",
    );
  });
});
