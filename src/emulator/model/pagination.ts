// The interface's list rules: page from 1 (0 or not a number → 400, past the end → 404),
// items up to 100 (larger → 100, invalid → 20), newest first.

import { HttpError } from './reply.js';

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;

export interface Pagination {
  current_page: number;
  total_pages: number;
  total_count: number;
  per_page: number;
}

export function parsePageQuery(query: URLSearchParams): { page: number; perPage: number } {
  const rawPage = query.get('page');
  let page = 1;
  if (rawPage !== null) {
    if (!/^\d+$/.test(rawPage) || Number(rawPage) < 1) {
      throw new HttpError(400, `invalid page "${rawPage}": pages are numbered from 1`);
    }
    page = Number(rawPage);
  }
  const rawItems = query.get('items');
  let perPage = DEFAULT_PER_PAGE;
  if (rawItems !== null && /^\d+$/.test(rawItems) && Number(rawItems) >= 1) {
    perPage = Math.min(Number(rawItems), MAX_PER_PAGE);
  }
  return { page, perPage };
}

/** One page of `ids` (ascending) in descending order, without copying the whole list. */
export function pageOfIds(
  ids: readonly number[],
  query: URLSearchParams,
): { ids: number[]; pagination: Pagination } {
  const { page, perPage } = parsePageQuery(query);
  const total = ids.length;
  const totalPages = Math.ceil(total / perPage);
  if (page > Math.max(totalPages, 1)) {
    throw new HttpError(404, `page ${page} is past the last page (${totalPages})`);
  }
  const end = total - (page - 1) * perPage;
  const start = Math.max(end - perPage, 0);
  return {
    ids: ids.slice(start, end).reverse(),
    pagination: { current_page: page, total_pages: totalPages, total_count: total, per_page: perPage },
  };
}
