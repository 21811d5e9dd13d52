"use client";
// An entity and the entities it shares memories with, drawn with React Flow (@xyflow/react): the entity in the
// middle, its neighbours around it, each edge as thick as the memories the two share. A click on a neighbour
// opens its page; the graph pans, zooms (pinch or ctrl + wheel) and its nodes drag. It is for the eye and the
// mouse only: hidden from assistive technology and out of the tab order, because the page's table of the same
// neighbours (EntityNeighbours) is its text alternative, with the links a keyboard and a screen reader use.
import {
  Handle,
  Position,
  ReactFlow,
  useNodesState,
  type Edge,
  type Node,
  type NodeMouseHandler,
  type NodeProps,
} from "@xyflow/react";
import "@xyflow/react/dist/base.css";
import { useRouter } from "next/navigation";
import { useCallback, useMemo } from "react";
import { KIND_STYLES, type EntityKindName } from "./entity-kinds";

export interface GraphEntity {
  id: string;
  name: string;
  kind: string;
}

export interface GraphNeighbour {
  entity: GraphEntity;
  shared_memories: number;
  href: string;
}

type EntityNodeData = { name: string; kind: string; center: boolean; href: string | null };
type EntityNode = Node<EntityNodeData, "entity">;

/** Neighbours on the first ring; the rest go on a wider second one, so labels keep apart. */
const FIRST_RING = 10;
const RING_RADIUS = [190, 330];

/**
 * A one-hop graph needs no layout engine: the strongest neighbours on an inner ring, starting at the top and
 * going clockwise in order of shared memories, the others on an outer ring offset by half a step.
 */
function layout(center: GraphEntity, neighbours: GraphNeighbour[]): EntityNode[] {
  const rings = [neighbours.slice(0, FIRST_RING), neighbours.slice(FIRST_RING)];
  const nodes: EntityNode[] = [
    {
      id: center.id,
      type: "entity",
      position: { x: 0, y: 0 },
      data: { name: center.name, kind: center.kind, center: true, href: null },
      origin: [0.5, 0.5],
    },
  ];
  rings.forEach((ring, r) => {
    ring.forEach((neighbour, i) => {
      const angle = -Math.PI / 2 + ((i + r * 0.5) * 2 * Math.PI) / ring.length;
      nodes.push({
        id: neighbour.entity.id,
        type: "entity",
        position: { x: Math.cos(angle) * RING_RADIUS[r], y: Math.sin(angle) * RING_RADIUS[r] * 0.8 },
        data: { name: neighbour.entity.name, kind: neighbour.entity.kind, center: false, href: neighbour.href },
        origin: [0.5, 0.5],
      });
    });
  });
  return nodes;
}

function EntityNodeView({ data }: NodeProps<EntityNode>) {
  const style = KIND_STYLES[data.kind as EntityKindName] ?? KIND_STYLES.other;
  return (
    <div
      className={`max-w-[11rem] rounded-full border px-3 py-1 text-center text-xs shadow-sm ${style.chip} ${
        data.center ? "border-2 px-4 py-2 text-sm font-semibold" : "cursor-pointer hover:ring-2 hover:ring-indigo-300"
      }`}
      data-entity-node={data.name}
    >
      {/* One hidden handle in the middle: straight edges then run centre to centre. */}
      <Handle type="target" position={Position.Top} className="!invisible !inset-1/2" isConnectable={false} />
      <Handle type="source" position={Position.Top} className="!invisible !inset-1/2" isConnectable={false} />
      <span className="block truncate">{data.name}</span>
      <span className="block text-[10px] opacity-80">{style.label}</span>
    </div>
  );
}

const NODE_TYPES = { entity: EntityNodeView };

export default function EntityGraph({ center, neighbours }: { center: GraphEntity; neighbours: GraphNeighbour[] }) {
  const router = useRouter();
  const initialNodes = useMemo(() => layout(center, neighbours), [center, neighbours]);
  const [nodes, , onNodesChange] = useNodesState(initialNodes);
  const edges = useMemo<Edge[]>(() => {
    const strongest = Math.max(1, ...neighbours.map((n) => n.shared_memories));
    return neighbours.map((neighbour) => ({
      id: `${center.id}-${neighbour.entity.id}`,
      source: center.id,
      target: neighbour.entity.id,
      type: "straight",
      label: String(neighbour.shared_memories),
      labelStyle: { fontSize: 11, fill: "#334155" },
      labelBgStyle: { fill: "#f8fafc" },
      style: { stroke: "#94a3b8", strokeWidth: 1 + (5 * neighbour.shared_memories) / strongest },
      selectable: false,
    }));
  }, [center, neighbours]);
  const open = useCallback<NodeMouseHandler<EntityNode>>(
    (_event, node) => {
      if (node.data.href) router.push(node.data.href);
    },
    [router],
  );
  return (
    <ReactFlow
      nodes={nodes}
      edges={edges}
      nodeTypes={NODE_TYPES}
      onNodesChange={onNodesChange}
      onNodeClick={open}
      fitView
      fitViewOptions={{ padding: 0.15 }}
      minZoom={0.3}
      // The page scrolls under the wheel as everywhere else; zooming is a pinch, or the wheel with ctrl.
      zoomOnScroll={false}
      preventScrolling={false}
      nodesConnectable={false}
      nodesFocusable={false}
      edgesFocusable={false}
      elementsSelectable={false}
      disableKeyboardA11y
      // Credited in a visible line under the graph instead, outside the part hidden from assistive technology.
      proOptions={{ hideAttribution: true }}
    />
  );
}
