import { Text } from '@mantine/core';
import type { VersionAction } from '@cr/contract/history';
import type { CSSProperties, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateLong } from '../lib/format';
import { CELL_CLASS, PlainTable, ROW_CLASS } from './plain';
import { ScrollTable } from './scroll-table';

/** What every version of a review or a moderation has (issue 28 item 3). */
export interface VersionRow {
  version: number;
  created_at: string;
  /** Who made the change; null when the account is gone. */
  actor: string | null;
  action: VersionAction;
}

/** A column after version, when, who and action: its header, and its cell for a version. */
export interface VersionColumn<V> {
  key: string;
  header: ReactNode;
  cell: (version: V) => ReactNode;
  style?: CSSProperties;
}

interface VersionsTableProps<V extends VersionRow> {
  versions: readonly V[];
  /** The table's accessible name. */
  label: string;
  /** The scrolling box's name, when it differs from the table's. */
  scrollLabel?: string;
  minWidth: number;
  columns?: readonly VersionColumn<V>[];
  /** The action in a heavier weight (the review's history, where the action is what a row says). */
  emphasiseAction?: boolean;
}

/**
 * The versions of a review or of a moderation (issue 45 item 11): version, when, who and what was done, then the
 * columns of what the version held. One table for both histories, so that their common cells read alike.
 */
export function VersionsTable<V extends VersionRow>({
  versions,
  label,
  scrollLabel = label,
  minWidth,
  columns = [],
  emphasiseAction = false,
}: VersionsTableProps<V>) {
  const { t } = useTranslation();
  return (
    <ScrollTable minWidth={minWidth} label={scrollLabel}>
      <PlainTable aria-label={label}>
        <thead>
          <tr>
            <th>{t('history.columns.version')}</th>
            <th>{t('history.columns.when')}</th>
            <th>{t('history.columns.who')}</th>
            <th>{t('history.columns.action')}</th>
            {columns.map((column) => (
              <th key={column.key}>{column.header}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {versions.map((version) => {
            const action = t(`history.actions.${version.action}`);
            return (
              <tr key={version.version} className={ROW_CLASS}>
                <td className={CELL_CLASS}>{version.version}</td>
                <td className={CELL_CLASS}>{formatDateLong(version.created_at)}</td>
                <td className={CELL_CLASS}>
                  <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                    {version.actor ?? t('history.unknownActor')}
                  </Text>
                </td>
                <td className={CELL_CLASS}>
                  {emphasiseAction ? (
                    <Text size="sm" fw={500}>
                      {action}
                    </Text>
                  ) : (
                    action
                  )}
                </td>
                {columns.map((column) => (
                  <td key={column.key} className={CELL_CLASS} style={column.style}>
                    {column.cell(version)}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </PlainTable>
    </ScrollTable>
  );
}
