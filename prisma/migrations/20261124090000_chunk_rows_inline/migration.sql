-- A chunk row holds its 512-dimension embedding (2,056 bytes, stored PLAIN so that it is never compressed or
-- moved out of the row). That alone is over PostgreSQL's TOAST threshold (2,032 bytes): the toaster then moved
-- every other text column out of line, ids and namespace id included, so reading a chunk row meant three more
-- page reads in the TOAST table, and an exact vector scan of a namespace cost three times what it must
-- (measured on PGlite: 558 chunks, 11 ms, 4 ms once inline). Rows now stay whole up to 4 kB; a longer one has
-- its content compressed or moved first, being the largest. Existing rows are rewritten after this migration
-- (lib/db/migrate.ts, REWRITE_AFTER), outside its transaction, as VACUUM FULL must be.
ALTER TABLE "memory_chunks" SET (toast_tuple_target = 4096);
