// The noise of a figure from its own windows: the standard error of its mean as a fraction
// of the mean. Windows next to each other are alike, so `batch` windows are averaged first
// (batch means; 1 takes them as they are). Shared by the worker (each sweep run's noise) and
// the page (compare's ratio).

export function relativeError(values, batch = 1) {
  const xs = [];
  for (let k = 0; k + batch <= values.length; k += batch) {
    let sum = 0;
    for (let j = k; j < k + batch; j++) sum += values[j];
    xs.push(sum / batch);
  }
  if (xs.length < 2) return 0;
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1));
  return mean > 0 ? sd / Math.sqrt(xs.length) / mean : 0;
}
