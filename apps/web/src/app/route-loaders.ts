import type { FetchQueryOptions, QueryKey } from '@tanstack/react-query';
import { PROPOSALS_PAGE_SIZE, allocatedProposalsQuery, proposalQuery, proposalsPageQuery } from '../features/proposals/api/proposals';
import { reviewQuery } from '../features/reviews/api/get-review';
import { allocatedReviewsQuery } from '../features/moderation/api/get-moderation-lists';
import { MODERATION_PAGE_SIZE } from '../features/moderation/api/keys';
import { EVENTS_PAGE_SIZE, currentEventsQuery, eventConfigQuery, eventsPageQuery, statusQuery } from '../features/events/api/events';
import { userInfoQuery } from '../features/profile/api/me';
import { pageOfSearch } from '../lib/page-param';
import { queryClient } from '../lib/query-client';
import { useSession } from '../lib/session';

/**
 * The first reads of each page, started by its route's loader (issue 46 item 5): React Router runs a route's loader as
 * the navigation starts, beside the download of the page's lazy module, so the page's data is on its way before its
 * code has arrived. Each loader asks the query cache (`ensureQueryData`, the same query options as the page's own
 * `useQuery`, from the feature's api/ file), so the page finds the read under way or done and never asks twice. They
 * return at once: a page renders its own loading state, and a failed read shows as the page shows it.
 */
type Args = { request: Request; params: Record<string, string | undefined> };

function start<T, K extends QueryKey>(options: FetchQueryOptions<T, Error, T, K>): null {
  queryClient.ensureQueryData(options).catch(() => undefined);
  return null;
}

const signedIn = () => useSession.getState().logged;
/** `?page=` as the pages read it (components/query-pagination.tsx). */
const pageOf = (request: Request) => pageOfSearch(new URL(request.url).searchParams);
/** A route's numeric id as the pages accept it, else none. */
const idOf = (value: string | undefined) => (value && /^\d+$/.test(value) && Number(value) > 0 ? Number(value) : undefined);

/** Every page: the status messages and the current rounds with their settings (the navigation bar's stage). */
export function startFrameReads() {
  start(statusQuery);
  queryClient
    .ensureQueryData(currentEventsQuery)
    .then((events) => events.forEach((event) => start(eventConfigQuery(event.row_id))))
    .catch(() => undefined);
}

export const firstReads = {
  proposals({ request }: Args): null {
    const url = new URL(request.url);
    return start(proposalsPageQuery({ page: pageOf(request), size: PROPOSALS_PAGE_SIZE, title: url.searchParams.get('title') ?? '' }));
  },
  proposal({ params }: Args): null {
    const id = idOf(params.id);
    return id ? start(proposalQuery(id)) : null;
  },
  review({ params }: Args): null {
    const id = idOf(params.id);
    return id ? start(reviewQuery(id)) : null;
  },
  allocatedProposals({ request }: Args): null {
    return signedIn() ? start(allocatedProposalsQuery(pageOf(request), PROPOSALS_PAGE_SIZE)) : null;
  },
  allocatedReviews({ request }: Args): null {
    return signedIn() ? start(allocatedReviewsQuery(pageOf(request), MODERATION_PAGE_SIZE)) : null;
  },
  profile(): null {
    return signedIn() ? start(userInfoQuery) : null;
  },
  adminEvents({ request }: Args): null {
    return signedIn() ? start(eventsPageQuery(pageOf(request), EVENTS_PAGE_SIZE)) : null;
  },
};
