/**
 * Whether the router is taking the user to another page, read from the router itself. React's view of it
 * (`useNavigation()`) arrives in a transition, after more urgent updates: a debounced filter that settles just after a
 * link was clicked still sees 'idle' there, and its own navigation would replace the click's (issue 26). The app's
 * router registers itself here (app/router.tsx); without one (unit tests) nothing is ever pending.
 */
interface RouterState {
  location: { pathname: string };
  navigation: { state: string; location?: { pathname: string } | undefined };
}
interface RouterLike {
  state: RouterState;
  subscribe(listener: (state: RouterState) => void): () => void;
}

let router: RouterLike | null = null;

export function registerRouter(instance: RouterLike) {
  router = instance;
}

/**
 * Whether a navigation to another page is in progress (a link followed); a change of the query string on this page
 * (another filter's write) does not count.
 */
export function leavingPage(): boolean {
  if (!router) return false;
  const { navigation, location } = router.state;
  return navigation.state !== 'idle' && navigation.location?.pathname !== location.pathname;
}

/** Calls `callback` once no navigation to another page is in progress (at once when none is); answers a cancel. */
export function whenIdle(callback: () => void): () => void {
  if (!router || !leavingPage()) {
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
