/**
 * B3 "ours": the real editor component (palette, canvas, inspector, validation, history) as the
 * /workflows/[id]/edit route renders it, with server actions that answer at once (nothing is saved).
 * Bundled by bench/editor/build.ts; the page sets `window.__B3__` to the workflow document.
 */
import "@fontsource-variable/inter";
import { createRoot } from "react-dom/client";
import type { Workflow } from "@/lib/workflow/schema";
import { ThemeProvider } from "@/components/layout/theme-provider";
import type { EditorServerActions } from "@/components/editor/editor-types";
import { WorkflowEditor } from "@/components/editor/workflow-editor";

const doc = (window as unknown as { __B3__: Workflow }).__B3__;
const now = () => new Date().toISOString();
const actions: EditorServerActions = {
  saveDraft: async () => ({ ok: true, data: { savedAt: now() } }),
  saveVersion: async () => ({ ok: true, data: { id: "v1", version: 1, message: "", createdAt: now() } }),
  listVersions: async () => ({ ok: true, data: [] }),
  getVersion: async () => ({ ok: false, error: "no versions in the benchmark" }),
  restoreVersion: async () => ({ ok: false, error: "no versions in the benchmark" }),
};

createRoot(document.getElementById("root")!).render(
  <ThemeProvider>
    {/* The route's frame (editor-client.tsx): fixed below the 56 px app header. */}
    <div className="fixed inset-x-0 bottom-0 top-14 z-30 bg-background">
      <WorkflowEditor workflowId="b3" initialDraft={doc} actions={actions} />
    </div>
  </ThemeProvider>,
);
