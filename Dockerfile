# Memory Gateway: the console and API, built at image build time, run as a non-root user.
#   docker build -t memory-gateway .
#   docker run -p 127.0.0.1:3000:3000 -v memgw-data:/data memory-gateway     # embedded database in /data
# With PostgreSQL, set DATABASE_URL (compose.yaml does). Every setting comes from the environment
# (docs/configuration.md); docs/deployment.md says how to run it.
ARG NODE_IMAGE=node:24-bookworm-slim

# The toolchain that builds the optional native kernels (native/matmul) and any package that compiles at
# install. Node's own headers are in the base image: node-gyp downloads nothing.
FROM ${NODE_IMAGE} AS toolchain
RUN apt-get update \
    && apt-get install -y --no-install-recommends python3 make g++ \
    && rm -rf /var/lib/apt/lists/*
ENV npm_config_nodedir=/usr/local npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
WORKDIR /app

# Every dependency, for the build. Only what `npm install` reads is copied, so that this layer is rebuilt only
# when the dependencies change. (`npm ci` refuses a lockfile naming other platforms' optional packages that a
# registry may not serve.)
FROM toolchain AS deps
COPY package.json package-lock.json prisma.config.ts ./
COPY packages/client/package.json packages/client/
COPY packages/ai-sdk/package.json packages/ai-sdk/
COPY packages/langchain/package.json packages/langchain/
COPY native/matmul native/matmul
COPY tools/prisma-streams-local-unused tools/prisma-streams-local-unused
COPY scripts/prisma-generate.mjs scripts/
COPY prisma/schema.prisma prisma/
RUN npm install && rm -rf /root/.npm

# The build: the console and API compiled once, here, never at start. /dist is what the runtime takes of it:
# the build, the generated Prisma client and the sources the command line and the migrations read.
FROM deps AS build
COPY . .
RUN npm run build \
    && mkdir /dist \
    && tar -c --exclude=./node_modules --exclude=./.next/cache --exclude=./packages --exclude=./sdks \
        --exclude=./examples --exclude=./bench --exclude=./e2e --exclude=./tests \
        --exclude=./docs --exclude=./native/matmul/build . | tar -x -C /dist

# Production dependencies alone, the native kernels compiled again for them. The manifest here loses its
# development dependencies and workspaces (the SDKs are not part of the server): with them, npm keeps what a
# production package names as an optional peer (the Prisma CLI with its studio, TypeScript), 150 MB of them.
FROM toolchain AS production-deps
COPY package.json package-lock.json ./
COPY native/matmul native/matmul
COPY tools/prisma-streams-local-unused tools/prisma-streams-local-unused
RUN npm pkg delete devDependencies workspaces \
    && npm install --omit=dev --ignore-scripts \
    && npm rebuild memgw-native-matmul \
    && rm -rf native/matmul/build/Release/obj.target /root/.npm

# What runs: owned by root and read-only for the user that serves it, with the OCR language data and the
# embedding model inside (nothing is downloaded at run time). /data is the only place it writes (and /tmp).
FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
ENV NODE_ENV=production \
    MEMGW_BUILD=never \
    PORT=3000 \
    DATA_DIR=/data
COPY --from=build /dist /app
COPY --from=production-deps /app/node_modules /app/node_modules
COPY --from=production-deps /app/native/matmul/build /app/native/matmul/build
# `memgw`, the admin command line, on the PATH: `docker compose exec gateway memgw key create …`.
RUN ln -s /app/bin/memgw.mjs /usr/local/bin/memgw \
    && groupadd --system memgw \
    && useradd --system --gid memgw --home-dir /data --shell /usr/sbin/nologin memgw \
    && mkdir -p /data \
    && chown memgw:memgw /data
USER memgw
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=5s --start-period=120s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/v1/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM drains the requests in flight (up to 10 s) and closes the database: give `docker stop` 15 s or more.
STOPSIGNAL SIGTERM
CMD ["node", "scripts/start.mjs"]
