import { Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { noteCount } from '../values';

interface NoteFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  error?: string | undefined;
}

/** A justification note with a live count of its characters, white space not counted (spec §5). */
export function NoteField({ label, value, onChange, onBlur, error }: NoteFieldProps) {
  const { t } = useTranslation();
  return (
    <Textarea
      label={label}
      description={t('reviews.noteCount', noteCount(value))}
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      onBlur={onBlur}
      error={error}
      withAsterisk
      autosize
      minRows={4}
      maxRows={12}
    />
  );
}
