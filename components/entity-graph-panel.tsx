"use client";
// The entity graph, loaded in the browser only (React Flow measures its box and its nodes, which a server
// cannot) and only on a screen wide enough for it: on a phone a drawing that pans under the finger would
// take the page's scrolling, and the table of the same neighbours beside it says everything the graph does.
import dynamic from "next/dynamic";
import { useSyncExternalStore } from "react";
import type { GraphEntity, GraphNeighbour } from "./entity-graph";

const EntityGraph = dynamic(() => import("./entity-graph"), {
  ssr: false,
  loading: () => <div className="h-full w-full animate-pulse bg-slate-100" />,
});

const WIDE = "(min-width: 640px)";

function subscribe(onChange: () => void) {
  const query = window.matchMedia(WIDE);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

export function EntityGraphPanel({ center, neighbours }: { center: GraphEntity; neighbours: GraphNeighbour[] }) {
  const wide = useSyncExternalStore(
    subscribe,
    () => window.matchMedia(WIDE).matches,
    () => false,
  );
  return (
    <figure className="hidden min-w-0 sm:block">
      <div
        className="h-[26rem] w-full overflow-hidden rounded-md border border-slate-200 bg-slate-50"
        data-testid="entity-graph"
        aria-hidden="true"
      >
        {/* Keyed by the entity: opening a neighbour lays the graph out anew around it. */}
        {wide && <EntityGraph key={center.id} center={center} neighbours={neighbours} />}
      </div>
      <figcaption className="mt-2 text-xs text-slate-600">
        Click an entity to open it; drag to move the graph or an entity, pinch or ctrl + scroll to zoom. Each line is as
        thick as the memories the two share (the number on it). Drawn with{" "}
        <a href="https://reactflow.dev" className="text-indigo-700 underline" rel="noreferrer" target="_blank">
          React Flow
        </a>
        .
      </figcaption>
    </figure>
  );
}
