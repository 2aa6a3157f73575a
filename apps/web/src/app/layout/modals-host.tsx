import { ModalsProvider } from '@mantine/modals';
import { useEffect } from 'react';
import { modalsHostMounted } from '../../lib/modals';

/**
 * Mantine's modals manager, mounted the first time a confirmation is asked for (lib/modals.ts). Its listeners are
 * in place once this effect runs (a child's effects run before its parent's).
 */
export default function ModalsHost() {
  useEffect(() => modalsHostMounted(), []);
  return <ModalsProvider>{null}</ModalsProvider>;
}
