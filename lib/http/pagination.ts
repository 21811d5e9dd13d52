import { z } from "zod";

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
