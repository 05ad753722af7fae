"use client";
import { ReactFlowProvider, useReactFlow, type Connection, type XYPosition } from "@xyflow/react";
import { startTransition, useCallback, useMemo, useRef, useState } from "react";
import { toast } from "sonner";
import { hasErrors, type ValidationIssue } from "@/lib/workflow/validate";
import type { Workflow } from "@/lib/workflow/schema";
import * as ops from "./editor-ops";
import type { EditorServerActions, RenderRunPanel } from "./editor-types";
import type { FlowOverlay, NodeRunState } from "./flow-mapping";
import { HelpDialog } from "./help-dialog";
import { Inspector } from "./inspector/inspector";
import type { InspectorActions } from "./inspector/types";
import { downloadJson } from "./io-file";
import { IssuesPanel, issuesByElement } from "./issues-panel";
import { layoutDocument } from "./layout";
import { Palette, type SavedAgentItem } from "./palette";
import type { PaletteItem } from "./palette-item";
import { SidePanel, type PanelTab } from "./side-panel";
import { subflowValidationContext, type SubflowTarget, type SubflowTargets } from "./subflow-targets";
import { SubflowTargetsProvider } from "./subflow-targets-context";
import { ModelChoicesProvider, type ProviderChoice } from "./model-choices-context";
import { Toolbar } from "./toolbar";
import { useEditorDocument } from "./use-editor-document";
import { useEditorShortcuts } from "./use-editor-shortcuts";
import { useOpeningView } from "./use-opening-view";
import { useUnsavedGuard } from "./use-unsaved-guard";
import type { VersionDiff } from "./version-diff";
import { VersionsPanel } from "./versions-panel";
import { WorkflowCanvas, type CanvasSelection } from "./workflow-canvas";
import { useDesigner } from "@/components/designer/use-designer";

export type WorkflowEditorProps = {
  workflowId: string;
  initialDraft: Workflow;
  actions: EditorServerActions;
  savedAgents?: SavedAgentItem[];
  /**
   * The owner's workflows a subflow node may run (this one included), for the subflow inspector,
   * canvas nodes, template completion and validation; absent: subflows are checked without them.
   */
  subflowTargets?: SubflowTarget[];
  /** The user's model providers, for the inspector's model picker; absent: models are typed by name. */
  providers?: ProviderChoice[];
  /** The run tab's content (inputs form, live overlay); rendered by the route. */
  renderRunPanel?: RenderRunPanel;
  /**
   * The member's role when it may not change the workflow (runner, viewer): the graph is shown
   * without palette, designer, editing or saving; the run tab stays (the server decides who runs).
   */
  readOnlyRole?: string;
};

/** The visual editor of one workflow: palette, canvas, inspector/issues/versions/run side panel. */
export function WorkflowEditor(props: WorkflowEditorProps) {
  return (
    <ReactFlowProvider>
      <EditorBody {...props} />
    </ReactFlowProvider>
  );
}

function EditorBody({
  workflowId,
  initialDraft,
  actions,
  savedAgents,
  subflowTargets,
  providers,
  renderRunPanel,
  readOnlyRole,
}: WorkflowEditorProps) {
  const validationContext = useMemo(
    () => (subflowTargets ? subflowValidationContext(subflowTargets) : undefined),
    [subflowTargets],
  );
  const subflows = useMemo<SubflowTargets | undefined>(
    () => (subflowTargets ? { targets: subflowTargets, currentId: workflowId } : undefined),
    [subflowTargets, workflowId],
  );
  const editor = useEditorDocument(initialDraft, validationContext);
  const { doc, issues, apply } = editor;
  const flow = useReactFlow();
  const openingView = useOpeningView();
  const [selection, setSelection] = useState<CanvasSelection>({ nodes: [], edges: [] });
  const [tab, setTab] = useState<PanelTab>("inspect");
  const [saving, setSaving] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  const [versionsKey, setVersionsKey] = useState(0);
  const [diff, setDiff] = useState<VersionDiff | undefined>();
  const [runOverlay, setRunOverlay] = useState<ReadonlyMap<string, NodeRunState> | undefined>();
  const [focus, setFocus] = useState<{ id: string; kind: "node" | "edge"; nonce: number } | undefined>();
  const sizes = useRef(new Map<string, { width: number; height: number }>());
  useUnsavedGuard(editor.dirty);

  const issueMap = useMemo(() => issuesByElement(issues), [issues]);
  const overlay = useMemo<FlowOverlay>(
    () => ({ issues: issueMap, run: runOverlay, diff: diff?.marks }),
    [issueMap, runOverlay, diff],
  );
  const blockers = useMemo(() => issues.filter((i) => i.severity === "error"), [issues]);

  const save = useCallback(async (): Promise<boolean> => {
    if (readOnlyRole) return true; // nothing to save: the graph cannot change here
    setSaving(true);
    const snapshot = editor.doc;
    const r = await actions.saveDraft(workflowId, snapshot);
    setSaving(false);
    if (!r.ok) return (toast.error(r.error), false);
    editor.markSaved(snapshot);
    return true;
  }, [actions, workflowId, editor, readOnlyRole]);

  const saveVersion = useCallback(async () => {
    setSaving(true);
    const snapshot = editor.doc;
    const r = await actions.saveVersion(workflowId, snapshot, "");
    setSaving(false);
    if (!r.ok) return void toast.error(r.error);
    editor.markSaved(snapshot);
    setVersionsKey((k) => k + 1);
    toast.success(`Saved version ${r.data.version}${hasErrors(issues) ? " (not runnable yet: see issues)" : ""}.`);
  }, [actions, workflowId, editor, issues]);

  const addItem = useCallback(
    (item: PaletteItem, position?: XYPosition) => {
      const at = position ?? flow.screenToFlowPosition({ x: window.innerWidth / 2, y: window.innerHeight / 2 });
      const edit =
        item.type === "kind"
          ? ops.addNode(item.kind, at)
          : ops.addNode("agent", at, { id: item.agentId, name: item.name, spec: item.spec });
      apply(edit);
    },
    [apply, flow],
  );

  const autoLayout = useCallback(async () => {
    const positions = await layoutDocument(editor.doc, sizes.current);
    if (apply(ops.moveNodes(positions))) requestAnimationFrame(() => openingView());
  }, [apply, editor.doc, openingView]);

  // Stable callbacks, so a selection change (or any editor state the canvas, toolbar and palette do
  // not show) re-renders none of them (B3: renders per drag move).
  const moveNodes = useCallback((p: Map<string, XYPosition>) => void apply(ops.moveNodes(p)), [apply]);
  const connect = useCallback((c: Connection) => void apply(ops.connect(c)), [apply]);
  const onSave = useCallback(() => void save(), [save]);
  const onSaveVersion = useCallback(() => void saveVersion(), [saveVersion]);
  const onLayout = useCallback(() => void autoLayout(), [autoLayout]);
  const onExport = useCallback(() => downloadJson(editor.doc), [editor.doc]);
  // A press on a node selects it as a drag starts: the inspector follows in a transition, so drawing
  // the node's form never holds up the drag's first frames (B3: the first drag answered).
  const onSelect = useCallback((s: CanvasSelection) => startTransition(() => setSelection(s)), []);
  const openHelp = useCallback(() => setHelpOpen(true), []);

  const focusIssue = useCallback((issue: ValidationIssue) => {
    const id = issue.edgeId ?? issue.nodeId;
    if (id) setFocus({ id, kind: issue.edgeId ? "edge" : "node", nonce: Date.now() });
  }, []);

  const act = useMemo<InspectorActions>(
    () => ({
      updateNode: (id, patch) => apply(ops.updateNode(id, patch)),
      updateEdge: (id, patch) => apply(ops.updateEdge(id, patch)),
      updateWorkflow: (patch) => apply(ops.updateWorkflow(patch)),
      upsertAgent: (key, patch) => apply(ops.upsertAgent(key, patch)),
      newAgentKey: () => {
        const key = ops.freshId(editor.doc, "agent", new Set(), true);
        apply(ops.upsertAgent(key, { name: "New agent" }));
        return key;
      },
    }),
    [apply, editor.doc],
  );

  // The chat designer: a pending proposal replaces the canvas view (read-only) until accepted or rejected.
  const designer = useDesigner({ workflowId, editor });

  const shortcuts = useEditorShortcuts({ editor, selection, save, autoLayout, openHelp });

  // The importers (JSON, AutoAgents XML, MetaAgent FSM) load with the first import, not with the editor.
  const importText = useCallback(
    (text: string, fileName: string) =>
      void import("./import-file").then(({ importWorkflowFile }) => {
        const r = importWorkflowFile(text);
        if (!r.ok) return void toast.error(r.error);
        editor.replace({ ...r.doc, name: r.doc.name || editor.doc.name });
        toast.success(`Imported ${fileName} (${r.format}); undo to go back.`);
        if (r.warnings.length) toast.warning(r.warnings.slice(0, 3).join("\n"));
        requestAnimationFrame(() => openingView());
      }),
    [editor, openingView],
  );

  return (
    <SubflowTargetsProvider value={subflows}>
      <ModelChoicesProvider value={providers}>
        <div className="flex h-full min-h-0 flex-col" data-testid="workflow-editor">
          <Toolbar
            name={doc.name}
            dirty={editor.dirty}
            saving={saving}
            canUndo={editor.canUndo}
            canRedo={editor.canRedo}
            errorCount={blockers.length}
            onSave={onSave}
            onSaveVersion={onSaveVersion}
            onUndo={editor.undo}
            onRedo={editor.redo}
            onLayout={onLayout}
            onExport={onExport}
            onImport={importText}
            onHelp={openHelp}
            readOnlyRole={readOnlyRole}
          />
          <div className="flex min-h-0 flex-1">
            {!readOnlyRole && <Palette savedAgents={savedAgents} onAdd={addItem} />}
            <div className="relative min-w-0 flex-1" data-testid="canvas">
              <WorkflowCanvas
                doc={designer.preview?.doc ?? doc}
                overlay={designer.preview?.overlay ?? overlay}
                readOnly={Boolean(designer.preview) || Boolean(readOnlyRole)}
                sizesRef={sizes}
                focus={focus}
                onMoveNodes={moveNodes}
                onConnect={connect}
                onDropItem={addItem}
                onSelectionChange={onSelect}
              />
              {!readOnlyRole && designer.toggle}
            </div>
            {!readOnlyRole && designer.panel}
            <SidePanel
              tab={tab}
              onTab={setTab}
              issueCount={issues.length}
              inspect={
                <fieldset disabled={Boolean(readOnlyRole)} className="contents">
                  <Inspector doc={doc} nodeId={selection.nodes[0]} edgeId={selection.edges[0]} act={act} />
                </fieldset>
              }
              issues={<IssuesPanel issues={issues} onFocus={focusIssue} />}
              versions={
                <VersionsPanel
                  workflowId={workflowId}
                  draft={doc}
                  actions={actions}
                  refreshKey={versionsKey}
                  onCompare={setDiff}
                  onRestore={editor.replace}
                />
              }
              run={
                renderRunPanel ? (
                  renderRunPanel({ workflowId, doc, blockers, save, setRunOverlay })
                ) : (
                  <p className="text-xs text-muted">Runs are not available here.</p>
                )
              }
            />
          </div>
          <HelpDialog open={helpOpen} onOpenChange={setHelpOpen} shortcuts={shortcuts} />
        </div>
      </ModelChoicesProvider>
    </SubflowTargetsProvider>
  );
}
