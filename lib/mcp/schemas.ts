import { z } from "zod";
import { identifier } from "@/lib/validation/strings";

/** The MCP endpoint's path, as the OpenAPI document names it: `/mcp/{namespace_id}`. */
export const McpPathParams = z.strictObject({ namespace_id: identifier({ min: 1 }) });
