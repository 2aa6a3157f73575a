/** The page number of a query string, 0-based (spec §2.1): the pagers' (usePageParam) and the route loaders'. */
export const pageOfSearch = (params: URLSearchParams) => Math.max(0, Number.parseInt(params.get('page') ?? '0', 10) || 0);
