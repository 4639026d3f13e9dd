import { describe, expect, test } from "bun:test";
import { checkApproval, isApproval } from "../../../src/domain/templates/approval.ts";
import { checkTemplateKey, isProblem, parseTemplateRef } from "../../../src/domain/templates/key.ts";

const id = "tmpl_01jqz8m4x6v2k9e0n3s5t7w8yc";

describe("template keys", () => {
  test("lowercase letters, digits, dashes and underscores, 1 to 100 characters", () => {
    for (const key of ["release", "release-notes_2", "a", "x".repeat(100)])
      expect(checkTemplateKey(key)).toBe(undefined);
    for (const key of ["", "Release", "release notes", "café", "x".repeat(101), "tmpl_mine", 7]) {
      expect(checkTemplateKey(key)?.code).toBe("key_invalid");
    }
    expect(checkTemplateKey("A B", "templates.0.key")?.param).toBe("templates.0.key");
  });
});

describe("parseTemplateRef", () => {
  test("a key, a key at a version, or an ID", () => {
    expect(parseTemplateRef("release")).toEqual({ kind: "key", key: "release" });
    expect(parseTemplateRef("release@3")).toEqual({ kind: "key", key: "release", version: 3 });
    expect(parseTemplateRef(id)).toEqual({ kind: "id", id });
  });

  test("anything else is template_invalid", () => {
    for (const ref of [
      "",
      "Release",
      "release@",
      "release@0",
      "release@-1",
      "release@1.5",
      "release@01",
      "a@1@2",
    ]) {
      const parsed = parseTemplateRef(ref);
      expect(isProblem(parsed) && [parsed.code, parsed.param]).toEqual(["template_invalid", "template"]);
    }
    // `tmpl_` always means an ID, so a malformed one is not read as a key.
    for (const ref of ["tmpl_", "tmpl_short", `${id}x`, "tmpl_81jqz8m4x6v2k9e0n3s5t7w8yc", `${id}@2`]) {
      expect(isProblem(parseTemplateRef(ref))).toBe(true);
    }
  });
});

describe("approval", () => {
  test("inherit, required or not_required", () => {
    expect(["inherit", "required", "not_required"].map((a) => checkApproval(a))).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect(checkApproval("sometimes")).toEqual({
      code: "approval_invalid",
      message: "`approval` must be one of inherit, required, not_required.",
      param: "approval",
    });
    expect([isApproval(null), isApproval("Required")]).toEqual([false, false]);
  });
});
