import { Placeholder } from '../placeholder';

// TODO(issue 5/6): the screen's content.
export default function Proposals() {
  return <Placeholder titleKey="placeholder.proposals" />;
}
