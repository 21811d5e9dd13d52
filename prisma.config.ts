import { defineConfig } from "prisma/config";

// The Prisma CLI is used only for `prisma generate` and `prisma migrate diff`; migrations are applied
// by the application itself (lib/db/migrate.ts) because the CLI's schema engine cannot be downloaded here.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost/memgw" },
});
