import '@mantine/notifications/styles.css';
import { Notifications } from '@mantine/notifications';

/** The toasts' container, in its own module so that it loads with the first toast (issue 16: first load). */
export default function NotificationsContainer({ transitionDuration }: { transitionDuration: number }) {
  return <Notifications position="bottom-left" autoClose={5000} transitionDuration={transitionDuration} />;
}
