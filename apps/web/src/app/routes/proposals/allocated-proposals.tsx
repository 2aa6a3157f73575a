import { Placeholder } from '../placeholder';

// TODO(issue 5/6): the screen's content.
export default function AllocatedProposals() {
  return <Placeholder titleKey="placeholder.allocatedProposals" />;
}
