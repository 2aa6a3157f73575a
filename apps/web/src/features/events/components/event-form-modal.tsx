import { Modal } from '@mantine/core';
import type { EventPublic } from '@cr/contract/events';
import { useEffect, useState } from 'react';
import { EventForm } from './event-form';

/**
 * The event form in its modal (spec §2.17), loaded when New or Edit first opens it: the modal (its focus trap and
 * scroll lock), the date-time pickers, react-hook-form and the contract's rules are not part of the Events tab's first
 * load. Mounted from then on. It mounts closed and opens on its first effect, so that the modal sees itself open as
 * it always does: it keeps the element that opened it (New or Edit) and gives it focus back on close.
 */
export default function EventFormModal({
  opened,
  title,
  event,
  fullScreen,
  onClose,
}: {
  opened: boolean;
  title: string;
  event: EventPublic | undefined;
  fullScreen: boolean;
  onClose: () => void;
}) {
  const [shown, setShown] = useState(false);
  useEffect(() => setShown(opened), [opened]);
  return (
    <Modal opened={shown} onClose={onClose} title={title} size="lg" fullScreen={fullScreen}>
      {shown && <EventForm event={event} onDone={onClose} />}
    </Modal>
  );
}
