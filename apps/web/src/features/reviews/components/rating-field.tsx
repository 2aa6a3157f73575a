import { RATING_MAX } from '@cr/contract/plain';
import { Input, Rating } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import classes from './rating-field.module.css';

interface RatingFieldProps {
  label: string;
  value: number;
  onChange: (value: number) => void;
  onBlur: () => void;
  error?: string | undefined;
}

/**
 * A rating from 1 to 5 stars (spec §5): a radio group named by its label, one radio per star. A new form starts at 0,
 * which shows no star.
 */
export function RatingField({ label, value, onChange, onBlur, error }: RatingFieldProps) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <Input.Wrapper id={id} label={label} labelElement="div" error={error} withAsterisk>
      <div
        role="radiogroup"
        aria-labelledby={`${id}-label`}
        aria-describedby={error ? `${id}-error` : undefined}
        aria-invalid={error ? true : undefined}
        onBlur={onBlur}
        className={classes.rating}
      >
        <Rating
          count={RATING_MAX}
          fractions={1}
          size="lg"
          value={value}
          onChange={onChange}
          getSymbolLabel={(stars) => t('reviews.stars', { count: stars })}
        />
      </div>
    </Input.Wrapper>
  );
}
