import { useTranslation } from 'react-i18next';
import { PageHeading } from '../../../components/page-heading';
import { AllocatedAppeals as AllocatedAppealsTable } from '../../../features/appeals/components/my-appeals';

/** /appeals: the appeals allocated to the moderator (issue 28 item 2). */
export default function AllocatedAppeals() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeading title={t('appeals.allocatedTitle')}>{t('appeals.allocatedIntro')}</PageHeading>
      <AllocatedAppealsTable />
    </>
  );
}
