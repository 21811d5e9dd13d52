// Namespaces, their export and import, and their grants.
// Part of the operation catalogue (lib/operations/catalogue.ts), which gathers every area's in order.
import { listNamespacesOperation } from "../namespaces/list-namespaces";
import { createNamespaceOperation } from "../namespaces/create-namespace";
import { getNamespaceOperation } from "../namespaces/get-namespace";
import { updateNamespaceOperation } from "../namespaces/update-namespace";
import { deleteNamespaceOperation } from "../namespaces/delete-namespace";
import { exportNamespaceOperation } from "../namespaces/export-namespace";
import { importNamespaceOperation } from "../namespaces/import-namespace";
import { listGrantsOperation } from "../namespaces/list-grants";
import { createGrantOperation } from "../namespaces/create-grant";
import { deleteGrantOperation } from "../namespaces/delete-grant";

export const namespacesOperations = {
  listNamespaces: listNamespacesOperation,
  createNamespace: createNamespaceOperation,
  getNamespace: getNamespaceOperation,
  updateNamespace: updateNamespaceOperation,
  deleteNamespace: deleteNamespaceOperation,
  // Export and import stream NDJSON (lib/portability/export-format.ts): a namespace of any size, never held whole.
  exportNamespace: exportNamespaceOperation,
  importNamespace: importNamespaceOperation,
  listGrants: listGrantsOperation,
  createGrant: createGrantOperation,
  deleteGrant: deleteGrantOperation,
};
