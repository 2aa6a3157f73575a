import type { modals } from '@mantine/modals';
import { useSyncExternalStore } from 'react';

/**
 * Confirmation dialogs without Mantine's modals manager in every page's first load (issue 16): the manager
 * (app/layout/modals-host.tsx) mounts when a page first asks for a confirmation, then opens it.
 */
let wanted = false;
let resolveMounted: () => void = () => {};
const mounted = new Promise<void>((resolve) => {
  resolveMounted = resolve;
});
const listeners = new Set<() => void>();

type OpenConfirmModal = Parameters<typeof modals.openConfirmModal>[0];

/** Whether the app should mount the modals manager (read by the app's provider). */
export function useModalsWanted() {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => wanted,
  );
}

/** Called by the manager once its listeners are in place. */
export function modalsHostMounted() {
  resolveMounted();
}

/** Opens a confirmation dialog (Mantine's `modals.openConfirmModal`), mounting the manager first if need be. */
export function openConfirmModal(props: OpenConfirmModal) {
  if (!wanted) {
    wanted = true;
    listeners.forEach((listener) => listener());
  }
  void mounted
    .then(() => import('@mantine/modals'))
    .then((module) => {
      module.modals.openConfirmModal(props);
    });
}
