// Only `prisma dev` (Prisma's local development database) imports this package; Memory Gateway has its own
// embedded database and never runs it. The real package requires Node 22 and made `npm install` warn on Node 20,
// so package.json's overrides put this in its place: a clear error if anything ever calls it.
export function startLocalDurableStreamsServer() {
  throw new Error(
    "`prisma dev` is not available in Memory Gateway (package.json overrides @prisma/streams-local): " +
      "the gateway runs its own embedded database (`npm start`).",
  );
}
