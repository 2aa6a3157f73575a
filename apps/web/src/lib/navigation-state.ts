/**
 * Whether the router has a navigation in progress, read from the router itself. React's view of it
 * (`useNavigation()`) arrives in a transition, after more urgent updates: a debounced filter that settles just after a
 * link was clicked still sees 'idle' there, and its own navigation would replace the click's (issue 26). The app's
 * router registers itself here (app/router.tsx); without one (unit tests) nothing is ever pending.
 */
interface RouterLike {
  state: { navigation: { state: string } };
  subscribe(listener: (state: { navigation: { state: string } }) => void): () => void;
}

let router: RouterLike | null = null;

export function registerRouter(instance: RouterLike) {
  router = instance;
}

export const navigationPending = () => (router ? router.state.navigation.state !== 'idle' : false);

/** Calls `callback` once the router has no navigation in progress (at once when it has none); answers a cancel. */
export function whenIdle(callback: () => void): () => void {
  if (!router || !navigationPending()) {
    callback();
    return () => {};
  }
  let done = false;
  const unsubscribe = router.subscribe((state) => {
    if (done || state.navigation.state !== 'idle') return;
    done = true;
    unsubscribe();
    callback();
  });
  return () => {
    done = true;
    unsubscribe();
  };
}
