"use client";
import "@xyflow/react/dist/style.css";
import {
  Controls,
  ReactFlow,
  applyEdgeChanges,
  applyNodeChanges,
  useReactFlow,
  useStore,
  type Connection,
  type EdgeChange,
  type NodeChange,
  type OnSelectionChangeParams,
  type XYPosition,
} from "@xyflow/react";
import { useTheme } from "next-themes";
import {
  memo,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type DragEvent,
} from "react";
import type { Workflow } from "@/lib/workflow/schema";
import { edgeTypes } from "./edges";
import { SelectEdgeProvider } from "./edges/select-edge";
import {
  documentToEdges,
  documentToNodes,
  reuseEdges,
  reuseNodes,
  type FlowEdge,
  type FlowNode,
  type FlowOverlay,
} from "./flow-mapping";
import { nodeTypes } from "./nodes";
import { documentBounds, openingViewport } from "./fit-view";
import { CanvasMinimap, MinimapToggle } from "./minimap/canvas-minimap";
import { nodesBounds } from "./minimap/geometry";
import {
  DetailBackground,
  DetailLevelProvider,
  isZoomedOut,
  NodeViewProvider,
  type NodeView,
} from "./nodes/detail-level";
import { PALETTE_MIME, type PaletteItem, parsePaletteItem } from "./palette-item";

/**
 * Above this many nodes, and while zoomed in, the canvas renders only what is in the viewport
 * (benchmark B3: 2,000 nodes). Zoomed out (below DETAIL_ZOOM) nodes are flat boxes and mostly all in
 * view, and culling there only made every pan step re-compute the visible set and mount/unmount nodes.
 */
export const VISIBLE_ONLY_THRESHOLD = 150;

export type CanvasSelection = { nodes: string[]; edges: string[] };

const noSubscription = () => () => {};

/**
 * React Flow's colorMode from the app theme (next-themes; "system" resolves to the OS preference).
 * The server cannot know the theme, so the server render and hydration use "light" and the real mode
 * follows once hydrated: reading resolvedTheme during hydration gave the client "dark" where the
 * server HTML said "light", and React keeps the server's attributes on such a mismatch — the canvas
 * stayed `.react-flow.light` on a dark page.
 */
function useCanvasColorMode(): "light" | "dark" {
  const { resolvedTheme } = useTheme();
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  return hydrated && resolvedTheme === "dark" ? "dark" : "light";
}

export type WorkflowCanvasProps = {
  doc: Workflow;
  overlay: FlowOverlay;
  readOnly?: boolean;
  /** What node bodies show: the editor's design facts, or a run's (dashboard and share page); see NodeView. */
  view?: NodeView;
  /** Drag stop: the final positions of the moved nodes (one history entry per drag). */
  onMoveNodes?: (positions: Map<string, XYPosition>) => void;
  onConnect?: (connection: Connection) => void;
  onDropItem?: (item: PaletteItem, position: XYPosition) => void;
  onSelectionChange?: (selection: CanvasSelection) => void;
  /** Called once with node sizes when the canvas has measured them (used by auto-layout). */
  sizesRef?: { current: Map<string, { width: number; height: number }> };
  /** Selects and zooms to one element (e.g. a clicked validation issue); a new nonce repeats it. */
  focus?: { id: string; kind: "node" | "edge"; nonce: number };
};

/** Only these change kinds stay local to the canvas; removals go through edit operations instead. */
const LOCAL_NODE_CHANGES = new Set<NodeChange["type"]>(["position", "dimensions", "select", "replace"]);
const LOCAL_EDGE_CHANGES = new Set<EdgeChange["type"]>(["select", "replace"]);

// Props React Flow compares by reference (its StoreUpdater writes a changed one into the store): constants.
const MULTI_SELECT_KEYS = ["Meta", "Control", "Shift"];
/** The controls' fit button and the "F" shortcut: the whole graph (an overview, however small its text). */
const FIT_VIEW = { maxZoom: 1, padding: 0.1 };
const PRO_OPTIONS = { hideAttribution: true };

/**
 * The React Flow canvas: a view of the document. Drags and selection live in local state (so a drag
 * re-renders only the moved nodes); everything else arrives as a new document from the editor. It
 * measures its box first and opens at the view fit-view.ts computes from the document (no fit after
 * the nodes are measured: the first frame with nodes is the final one). Memoised: the editor
 * re-renders for selection and panel state the canvas does not show.
 */
export const WorkflowCanvas = memo(function WorkflowCanvas(props: WorkflowCanvasProps) {
  const box = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState<{ width: number; height: number } | null>(null);
  // Before the first paint: the box's size decides the opening view.
  useLayoutEffect(() => {
    const r = box.current?.getBoundingClientRect();
    if (r) setSize({ width: r.width, height: r.height });
  }, []);
  return (
    <div ref={box} className="h-full w-full">
      {size && <Canvas {...props} size={size} />}
    </div>
  );
});

function Canvas({
  doc,
  overlay,
  readOnly = false,
  view = "design",
  size,
  onMoveNodes,
  onConnect,
  onDropItem,
  onSelectionChange,
  sizesRef,
  focus,
}: WorkflowCanvasProps & { size: { width: number; height: number } }) {
  const colorMode = useCanvasColorMode();
  const { screenToFlowPosition, fitView } = useReactFlow();
  const zoomedOut = useStore(isZoomedOut);
  const [nodes, setNodes] = useState<FlowNode[]>(() => documentToNodes(doc, overlay));
  const [edges, setEdges] = useState<FlowEdge[]>(() => documentToEdges(doc, overlay));
  const [opening] = useState(() => openingViewport(documentBounds(doc), size));
  // The minimap: shown while part of the graph is out of view, unless the user chose (the toggle).
  const [minimap, setMinimap] = useState<boolean | undefined>(undefined);
  const bounds = useMemo(() => nodesBounds(nodes), [nodes]);

  // A new document or overlay: rebuild the view, keeping unchanged objects (not on mount: the state
  // above was built from these very props, and a second pass would hand React Flow all nodes again).
  const built = useRef({ doc, overlay });
  useEffect(() => {
    if (built.current.doc === doc && built.current.overlay === overlay) return;
    built.current = { doc, overlay };
    setNodes((prev) => reuseNodes(prev, documentToNodes(doc, overlay)));
    setEdges((prev) => reuseEdges(prev, documentToEdges(doc, overlay)));
  }, [doc, overlay]);

  useEffect(() => {
    if (!focus) return;
    const pick = <T extends { id: string; selected?: boolean }>(list: T[], on: boolean) =>
      list.map((x) =>
        (x.id === focus.id && on) === Boolean(x.selected) ? x : { ...x, selected: x.id === focus.id && on },
      );
    setNodes((ns) => pick(ns, focus.kind === "node"));
    setEdges((es) => pick(es, focus.kind === "edge"));
    const edge = focus.kind === "edge" ? doc.edges.find((e) => e.id === focus.id) : undefined;
    const ids = edge ? [edge.source, edge.target] : [focus.id];
    requestAnimationFrame(() => void fitView({ nodes: ids.map((id) => ({ id })), duration: 300, maxZoom: 1.2 }));
  }, [focus]); // eslint-disable-line react-hooks/exhaustive-deps -- runs once per focus request

  const onNodesChange = useCallback(
    (changes: NodeChange<FlowNode>[]) => {
      const local = changes.filter((c) => LOCAL_NODE_CHANGES.has(c.type));
      if (local.length) setNodes((ns) => applyNodeChanges(local, ns));
      if (sizesRef)
        for (const c of local) if (c.type === "dimensions" && c.dimensions) sizesRef.current.set(c.id, c.dimensions);
    },
    [sizesRef],
  );

  const onEdgesChange = useCallback((changes: EdgeChange<FlowEdge>[]) => {
    const local = changes.filter((c) => LOCAL_EDGE_CHANGES.has(c.type));
    if (local.length) setEdges((es) => applyEdgeChanges(local, es));
  }, []);

  const onNodeDragStop = useCallback(
    (_: unknown, _node: FlowNode, moved: FlowNode[]) => {
      onMoveNodes?.(new Map(moved.map((n) => [n.id, { x: Math.round(n.position.x), y: Math.round(n.position.y) }])));
    },
    [onMoveNodes],
  );

  const onDragOver = useCallback((event: DragEvent) => {
    if (!event.dataTransfer.types.includes(PALETTE_MIME)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
  }, []);

  const onDrop = useCallback(
    (event: DragEvent) => {
      const item = parsePaletteItem(event.dataTransfer.getData(PALETTE_MIME));
      if (!item || !onDropItem) return;
      event.preventDefault();
      onDropItem(item, screenToFlowPosition({ x: event.clientX, y: event.clientY }));
    },
    [onDropItem, screenToFlowPosition],
  );

  // An edge label's click: that edge alone is selected (see edges/select-edge.tsx).
  const selectEdge = useCallback((id: string) => {
    setNodes((ns) => ns.map((n) => (n.selected ? { ...n, selected: false } : n)));
    setEdges((es) => es.map((e) => (Boolean(e.selected) === (e.id === id) ? e : { ...e, selected: e.id === id })));
  }, []);

  const handleSelection = useCallback(
    ({ nodes: ns, edges: es }: OnSelectionChangeParams) => {
      onSelectionChange?.({ nodes: ns.map((n) => n.id), edges: es.map((e) => e.id) });
    },
    [onSelectionChange],
  );

  return (
    <NodeViewProvider value={view}>
      <DetailLevelProvider>
        <SelectEdgeProvider value={selectEdge}>
          <ReactFlow<FlowNode, FlowEdge>
            nodes={nodes}
            edges={edges}
            nodeTypes={nodeTypes}
            edgeTypes={edgeTypes}
            onNodesChange={onNodesChange}
            onEdgesChange={onEdgesChange}
            onNodeDragStop={onNodeDragStop}
            onConnect={onConnect}
            onDragOver={onDragOver}
            onDrop={onDrop}
            onSelectionChange={handleSelection}
            nodesDraggable={!readOnly}
            nodesConnectable={!readOnly}
            deleteKeyCode={null}
            multiSelectionKeyCode={MULTI_SELECT_KEYS}
            selectionKeyCode="Shift"
            onlyRenderVisibleElements={nodes.length > VISIBLE_ONLY_THRESHOLD && !zoomedOut}
            colorMode={colorMode}
            defaultViewport={opening}
            minZoom={0.05}
            proOptions={PRO_OPTIONS}
          >
            <DetailBackground />
            <CanvasMinimap colorMode={colorMode} show={minimap} bounds={bounds} />
            <Controls fitViewOptions={FIT_VIEW} showInteractive={!readOnly}>
              <MinimapToggle choice={minimap} onChoose={setMinimap} bounds={bounds} />
            </Controls>
          </ReactFlow>
        </SelectEdgeProvider>
      </DetailLevelProvider>
    </NodeViewProvider>
  );
}
