/**
 * Whether the router has a navigation in progress, read from the router itself. React's view of it
 * (`useNavigation()`) arrives in a transition, after more urgent updates: a debounced filter that settles just after a
 * link was clicked still sees 'idle' there, and its own navigation would replace the click's (issue 26). The app's
 * router registers itself here (app/router.tsx); without one (unit tests) nothing is pending.
 */
interface RouterLike {
  state: { navigation: { state: string } };
}

let router: RouterLike | null = null;

export function registerRouter(instance: RouterLike) {
  router = instance;
}

export const navigationPending = () => (router ? router.state.navigation.state !== 'idle' : false);
