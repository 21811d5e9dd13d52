import { defineConfig } from "prisma/config";

// The Prisma CLI is used only for `prisma generate` and `prisma migrate diff`; migrations are applied
// by the application itself (lib/db/migrate.ts): the CLI cannot reach the embedded database inside the server.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost/memgw" },
});
