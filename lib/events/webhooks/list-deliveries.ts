import type { Principal } from "@/lib/auth/principal";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { pageWindow } from "@/lib/http/pagination";
import { EVENT_COLUMNS, type EventRow } from "../event-json";
import { EventType } from "@/lib/event-recording/event-types";
import type { DeliveryJson, ListDeliveriesQuery } from "./schemas";
import { findEndpoint } from "./webhook-access";
import { endpointContentJoin, webhookMessage } from "./webhook-message";

type DeliveryRow = EventRow & {
  delivery_id: string;
  endpoint_id: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  response_status: number | null;
  latency_ms: number | null;
  last_error: string | null;
  next_attempt_at: Date;
  delivered_at: Date | null;
  delivery_created_at: Date;
};

/** An endpoint's delivery log, newest first: each event sent (or to be), how its last attempt went, its payload. */
export async function listDeliveries(principal: Principal, endpointId: string, query: ListDeliveriesQuery) {
  const endpoint = await findEndpoint(principal, endpointId);
  const prisma = await db();
  const { skip, take } = pageWindow(query);
  const status = query.status ? Prisma.sql`AND d.status = ${query.status}` : Prisma.empty;
  const [rows, [counted]] = await Promise.all([
    prisma.$queryRaw<DeliveryRow[]>(
      Prisma.sql`SELECT d.id AS delivery_id, d.endpoint_id, d.status, d.attempts, d.response_status, d.latency_ms,
                        d.last_error, d.next_attempt_at, d.delivered_at, d.created_at AS delivery_created_at,
                        ${Prisma.raw(EVENT_COLUMNS)}
                 FROM webhook_deliveries d
                 JOIN events e ON e.id = d.event_id
                 ${endpointContentJoin(endpoint)}
                 WHERE d.org_id = ${principal.orgId} AND d.endpoint_id = ${endpoint.id} ${status}
                 ORDER BY d.txid DESC, d.seq DESC
                 LIMIT ${take} OFFSET ${skip}`,
    ),
    prisma.$queryRaw<{ total: number }[]>(
      Prisma.sql`SELECT count(*)::int AS total FROM webhook_deliveries d
                 WHERE d.org_id = ${principal.orgId} AND d.endpoint_id = ${endpoint.id} ${status}`,
    ),
  ]);
  return { items: rows.map((row) => deliveryJson(row, endpoint.includeContent)), total: counted.total };
}

function deliveryJson(row: DeliveryRow, includeContent: boolean): DeliveryJson {
  return {
    id: row.delivery_id,
    endpoint_id: row.endpoint_id,
    event_id: row.id,
    event_type: EventType.parse(row.type),
    status: row.status,
    attempts: row.attempts,
    response_status: row.response_status,
    latency_ms: row.latency_ms,
    last_error: row.last_error,
    next_attempt_at: row.status === "pending" ? row.next_attempt_at.toISOString() : null,
    delivered_at: row.delivered_at?.toISOString() ?? null,
    created_at: row.delivery_created_at.toISOString(),
    payload: webhookMessage(row, includeContent),
  };
}
