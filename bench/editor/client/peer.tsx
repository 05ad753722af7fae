/**
 * B3 peer: a plain React Flow page — default nodes, the same ids, positions and edges as the
 * editor's document, the same @xyflow/react version, the usual controlled-state pattern from the
 * React Flow docs, and nothing else. The page sets `window.__B3__` to { nodes, edges }.
 */
import "@xyflow/react/dist/style.css";
import { ReactFlow, addEdge, useEdgesState, useNodesState, type Connection, type Edge, type Node } from "@xyflow/react";
import { useCallback } from "react";
import { createRoot } from "react-dom/client";

const graph = (window as unknown as { __B3__: { nodes: Node[]; edges: Edge[] } }).__B3__;

function Flow() {
  const [nodes, , onNodesChange] = useNodesState(graph.nodes);
  const [edges, setEdges, onEdgesChange] = useEdgesState(graph.edges);
  const onConnect = useCallback((c: Connection) => setEdges((es) => addEdge(c, es)), [setEdges]);
  return (
    <div style={{ position: "fixed", inset: "56px 0 0 0" }}>
      <ReactFlow
        nodes={nodes}
        edges={edges}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onConnect={onConnect}
        fitView
        minZoom={0.05}
      />
    </div>
  );
}

createRoot(document.getElementById("root")!).render(<Flow />);
