// The operations' schemas run compiled (lib/operations/run.ts, `z.compile`). Each must compile: a schema zod's compiler
// cannot take is handed back as it was and parsed interpreted again, unseen (with `strict`, compile throws instead).
// A part it cannot take (a coerced query number) runs interpreted inside the compiled function, which stays correct.
// And what a request is answered must not change: the same data, the same 400 naming the same fields.
import { expect, test } from "vitest";
import { z } from "zod";
import { invalidRequest } from "@/lib/errors";
import { RecallBody } from "@/lib/memory/common/schemas";
import { operations } from "@/lib/operations/catalogue";
import { api } from "../helpers/api";
import { createNamespace, createTenant } from "../helpers/fixtures";

test("every schema runOperation parses, of every operation, compiles", () => {
  const schemas = Object.entries(operations).flatMap(([name, operation]) =>
    Object.entries({
      params: operation.params,
      query: operation.query,
      body: operation.body,
      response: operation.response,
    }).flatMap(([part, schema]) => (schema ? [{ name: `${name} ${part}`, schema }] : [])),
  );
  const refused = schemas.flatMap(({ name, schema }) => {
    try {
      z.compile(schema, { strict: true });
      return [];
    } catch (error) {
      return [`${name}: ${(error as Error).message}`];
    }
  });
  expect(refused).toEqual([]);
  expect(schemas.length).toBeGreaterThan(100);
});

test("a recall answers its response schema's fields, and a bad body the 400 its schema gives", async () => {
  const { key } = await createTenant();
  const ns = await createNamespace(key);
  const remembered = await api("POST", "/remember", {
    key,
    body: { namespace_id: ns.id, content: "Ada Lovelace wrote the first program.", metadata: { topic: "history" } },
  });
  expect(remembered.status).toBe(201);

  const recalled = await api("POST", "/recall", { key, body: { namespace_id: ns.id, query: "first program" } });
  expect(recalled.status).toBe(200);
  const [match] = recalled.body.data;
  expect(Object.keys(match).sort()).toEqual(Object.keys(operations.recall.response.element.shape).sort());
  expect(match).toMatchObject({ content: "Ada Lovelace wrote the first program.", metadata: { topic: "history" } });

  const bad = { namespace_id: ns.id, external_reference_id: "both", query: "", top_k: 0, colour: "red" };
  const refused = await api("POST", "/recall", { key, body: bad });
  expect(refused.status).toBe(400);
  // What the schema itself, interpreted, finds wrong, in the API's words.
  const expected = invalidRequest(RecallBody.safeParse(bad).error?.issues ?? [], "body").details;
  expect(expected?.length).toBeGreaterThan(1);
  expect(refused.body.error.details).toEqual(expected);
});
