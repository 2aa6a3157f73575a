import { Placeholder } from '../placeholder';

// TODO(issue 5/6): the screen's content.
export default function Reviews() {
  return <Placeholder titleKey="placeholder.reviews" />;
}
