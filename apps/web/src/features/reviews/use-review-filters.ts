import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { useDebouncedText } from '../../lib/use-debounced-text';
import { clearFilters, hasFilters, readFilters, writeFilter, type FilterDefaults, type ReviewFilters } from './filters';
import { askChange, settlePending, type PendingQueries } from './pending-query';

/** The reviews-list filters kept in the query string (spec §2.13, E-027, E-028), with the stage's defaults. */
export function useReviewFilters(defaults: FilterDefaults) {
  const [params, setParams] = useSearchParams();
  const filters = readFilters(params, defaults);
  // Changes asked for and not shown yet: the next change builds on them (issue 26 item 15, see pending-query.ts).
  const pending = useRef<PendingQueries | null>(null);
  // What lands is no longer on its way: settled at each query string shown, so that going Back to the query a change
  // was asked from (after that change landed) is not taken for the change still being on its way.
  const shown = params.toString();
  useEffect(() => {
    pending.current = settlePending(pending.current, shown);
  }, [shown]);

  const change = (update: (base: URLSearchParams) => URLSearchParams, replace = false) => {
    const asked = askChange(pending.current, params.toString(), update);
    pending.current = asked.pending;
    setParams(asked.next, { replace });
  };

  const set = <K extends keyof ReviewFilters>(key: K, value: ReviewFilters[K]) =>
    change((base) => writeFilter(base, key, value, defaults), key === 'proposal' || key === 'proposalId');

  const [proposal, setProposal] = useDebouncedText(filters.proposal, (value) => set('proposal', value));
  const [proposalId, setProposalId] = useDebouncedText(filters.proposalId, (value) => set('proposalId', value));

  const clear = () => {
    setProposal('');
    setProposalId('');
    change(clearFilters);
  };

  return {
    /** What the list asks for. */
    filters,
    /** What the typed fields show (ahead of the query string by the debounce). */
    inputs: { proposal, proposalId },
    setInput: { proposal: setProposal, proposalId: (value: string) => setProposalId(value.replace(/\D/g, '')) },
    set,
    clear,
    isFiltered: hasFilters(params) || proposal !== '' || proposalId !== '',
  };
}
