/** avg (two decimals), min and max of a list of counts, as the admin runs' statistics show them (spec §3). */
export interface Averages {
  avg: number;
  min: number;
  max: number;
}

export function averages(values: ArrayLike<number>): Averages {
  if (values.length === 0) return { avg: 0, min: 0, max: 0 };
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i]!;
    sum += value;
    if (value < min) min = value;
    if (value > max) max = value;
  }
  return { avg: Math.round((sum / values.length) * 100) / 100, min, max };
}
