// Once per test run, before any test file: the migrated embedded database every file copies.
import type { TestProject } from "vitest/node";
import { embeddedTemplate } from "./embedded-template";
import { onPostgres } from "./postgres";

declare module "vitest" {
  export interface ProvidedContext {
    /** The migrated embedded data directory (tests/helpers/embedded-template.ts); empty on PostgreSQL. */
    embeddedTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  project.provide("embeddedTemplate", onPostgres() ? "" : await embeddedTemplate());
}
