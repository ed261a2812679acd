/** A vector scaled to length 1, so that cosine similarity is a dot product; zero stays zero. */
export function unitVector(values: readonly number[]): Float32Array {
  const vector = Float32Array.from(values);
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm);
  if (norm > 0)
    for (let index = 0; index < vector.length; index++) vector[index] = (vector[index] ?? 0) / norm;
  return vector;
}

/** The cosine similarity of two unit vectors; 0 when their sizes differ (another model's vectors). */
export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0;
  let sum = 0;
  for (let index = 0; index < a.length; index++) sum += (a[index] ?? 0) * (b[index] ?? 0);
  return sum;
}
