import { Placeholder } from '../placeholder';

// TODO(issue 5/6): the screen's content.
export default function AllocatedReviews() {
  return <Placeholder titleKey="placeholder.allocatedReviews" />;
}
