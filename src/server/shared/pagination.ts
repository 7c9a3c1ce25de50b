import type { Paginated } from '../../shared/api/common';

/** The page a list endpoint was asked for (`pageQuerySchema`: page from 1, size). */
export interface PageRequest {
  page: number;
  size: number;
}

/**
 * The one way a list service answers: counts the matching rows, reads the requested window and maps
 * it, then builds the pagination of spec §3 (`total_pages` is 0 for an empty list).
 */
export async function paginate<Row, Item>(
  request: PageRequest,
  list: {
    count: () => Promise<number>;
    rows: (window: { limit: number; offset: number }) => Promise<Row[]>;
    toItems: (rows: Row[]) => Item[] | Promise<Item[]>;
  },
): Promise<Paginated<Item>> {
  const totalItems = await list.count();
  const rows = await list.rows({ limit: request.size, offset: (request.page - 1) * request.size });
  return {
    items: await list.toItems(rows),
    total_items: totalItems,
    total_pages: Math.ceil(totalItems / request.size),
    page: request.page,
    page_size: request.size,
  };
}
