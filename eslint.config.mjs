// `npm run lint`: typescript-eslint's recommended rules, React's hook rules, lines of at most 120 columns,
// and the layers (tools/eslint-layers.mjs): imports only point down, no two folders import each other,
// no file cycle in lib/, no lib/ file over 450 lines.
import js from "@eslint/js";
import stylistic from "@stylistic/eslint-plugin";
import { defineConfig, globalIgnores } from "eslint/config";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";
import layers from "./tools/eslint-layers.mjs";

export default defineConfig(
  globalIgnores([
    "**/node_modules/**",
    "**/.next*/**",
    "lib/generated/**",
    "packages/*/dist/**",
    "packages/client/src/generated/**",
    "native/*/build/**",
    "bench/.cache/**",
    "bench/results/tmp/**",
    "test-results/**",
    "playwright-report/**",
    ".data/**",
    "next-env.d.ts",
    "vendor/**",
  ]),
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
    languageOptions: { globals: { ...globals.node } },
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      // `_name` marks a parameter or binding kept for its position or its shape.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_" },
      ],
    },
  },
  {
    // Prettier wraps code at 120 columns but leaves comments, strings and test names as they are: this catches those.
    plugins: { "@stylistic": stylistic },
    rules: { "@stylistic/max-len": ["error", { code: 120, ignoreUrls: true, ignoreRegExpLiterals: true }] },
  },
  {
    // SQL is written with Prisma's tagged `Prisma.sql` fragments (run by $queryRaw / $executeRaw, or queryRows of
    // lib/db): each value sits where it is used, so a placeholder cannot drift from its parameter.
    rules: {
      "no-restricted-properties": [
        "error",
        ...["$queryRawUnsafe", "$executeRawUnsafe"].map((property) => ({
          property,
          message: "Build the statement with Prisma.sql`…` and run it with $queryRaw / $executeRaw.",
        })),
      ],
    },
  },
  {
    // Tests and benchmarks read JSON answers of every shape: typing each one would only restate the API.
    files: ["tests/**", "e2e/**", "bench/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    files: ["native/**/*.cjs"],
    languageOptions: { sourceType: "commonjs" },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    files: ["app/**/*.tsx", "components/**/*.tsx"],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
    },
  },
  {
    files: ["**/*.{ts,tsx,mts,mjs,js}"],
    plugins: { layers },
    rules: { "layers/imports": "error", "layers/no-folder-cycle": "error" },
  },
  {
    files: ["lib/**/*.{ts,tsx,mts,mjs}"],
    plugins: { "import-x": importX },
    settings: {
      // Extensions and parsers as import-x's TypeScript preset has them; the resolver knows the `@/` alias.
      ...importX.flatConfigs.typescript.settings,
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: "./tsconfig.json" })],
    },
    rules: {
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      // docs/architecture.md: no file of lib/ over 450 lines; a longer one mixes what should be two.
      "max-lines": ["error", { max: 450 }],
    },
  },
);
