/** A schema of an OpenAPI document, or the component its `$ref` names. */
export function component(doc: any, schema: any) {
  const ref = /^#\/components\/schemas\/(\w+)$/.exec(schema.$ref ?? "");
  return ref ? doc.components.schemas[ref[1]] : schema;
}
