import "server-only";
import { type TemplateOption } from "@/components/workflows/template-picker";
import { blankWorkflowDocument } from "@/lib/db/workflows";
import { type WorkflowInput } from "@/lib/workflow/schema";

/**
 * The choices of "New workflow". Pattern templates come from lib/workflow/templates.ts once it
 * exists; until then only the blank workflow is offered.
 */
export function templateOptions(): TemplateOption[] {
  return [{ id: "blank", name: "Blank workflow", description: "A start node wired to an end node." }];
}

/** The document of a template by id, or null for an unknown id (callers fall back to blank). */
export function templateDocument(id: string): WorkflowInput | null {
  return id === "blank" ? blankWorkflowDocument() : null;
}
