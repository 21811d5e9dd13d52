import { z } from "zod";
import { named } from "@/lib/validation/named";

export const PaginationQuery = z.strictObject({
  page: z.coerce
    .number({ error: "must be a whole number >= 1" })
    .int("must be a whole number >= 1")
    .min(1, "must be a whole number >= 1")
    .default(1),
  page_size: z.coerce
    .number({ error: "must be a whole number from 1 to 100" })
    .int("must be a whole number from 1 to 100")
    .min(1, "must be a whole number from 1 to 100")
    .max(100, "must be a whole number from 1 to 100")
    .default(20),
});
export type PaginationQuery = z.infer<typeof PaginationQuery>;

export const PaginationSchema = z.object({
  page: z.number(),
  pageSize: z.number(),
  total: z.number(),
  totalPages: z.number(),
});
export type Pagination = z.infer<typeof PaginationSchema>;

/** One page of a list: what a list handler returns, turned into `data` + `pagination` by the wrapper. */
export class Page<Item> {
  constructor(
    readonly items: Item[],
    readonly total: number,
    readonly query: PaginationQuery,
  ) {}

  get pagination(): Pagination {
    return {
      page: this.query.page,
      pageSize: this.query.page_size,
      total: this.total,
      totalPages: Math.ceil(this.total / this.query.page_size),
    };
  }
}

export function pageWindow(query: PaginationQuery): { skip: number; take: number } {
  return { skip: (query.page - 1) * query.page_size, take: query.page_size };
}

/** The pagination object of a cursor-paginated list: the spec's fields and where the next page starts. */
export const CursorPaginationSchema = PaginationSchema.extend({
  nextCursor: z.string().nullable().describe("pass it as `cursor` for the next page; null on the last page"),
}).describe(
  "page counts from 1 on the first page (no cursor) and grows by one with each nextCursor followed; " +
    "total and totalPages count what the filters match now",
);
export type CursorPagination = z.infer<typeof CursorPaginationSchema>;

/** One page of a cursor-paginated list (keyset pagination: see lib/memory/read/list.ts). */
export class CursorPage<Item> extends Page<Item> {
  constructor(
    items: Item[],
    total: number,
    readonly position: { page: number; pageSize: number; nextCursor: string | null },
  ) {
    super(items, total, { page: position.page, page_size: position.pageSize });
  }

  override get pagination(): CursorPagination {
    return { ...super.pagination, nextCursor: this.position.nextCursor };
  }
}

// The OpenAPI document's names for these schemas: its components, referenced wherever they are used.
named(PaginationSchema, "Pagination");
named(CursorPaginationSchema, "CursorPagination");
