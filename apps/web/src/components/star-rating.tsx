import { Rating, type RatingProps } from '@mantine/core';

/** Star rating on the default scale of 5; stars show whole numbers (spec §5). */
export function StarRating({ value, count = 5, ...props }: RatingProps & { value: number }) {
  return <Rating count={count} value={Math.round(value)} fractions={1} {...props} />;
}
