import { Modal } from '@mantine/core';
import type { EventPublic } from '@cr/contract/events';
import { EventForm } from './event-form';

/**
 * The event form in its modal (spec §2.17), loaded when New or Edit first opens it: the modal (its focus trap and
 * scroll lock), the date-time pickers, react-hook-form and the contract's rules are not part of the Events tab's first
 * load. Mounted from then on, so it opens and closes with its transition.
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
  return (
    <Modal opened={opened} onClose={onClose} title={title} size="lg" fullScreen={fullScreen}>
      {opened && <EventForm event={event} onDone={onClose} />}
    </Modal>
  );
}
