/** One SVG path drawing every dark module: built from numbers only, never from the encoded text. */
export function qrPath(matrix: boolean[][], margin: number): string {
  const parts: string[] = [];
  matrix.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) parts.push(`M${x + margin} ${y + margin}h1v1h-1z`);
    });
  });
  return parts.join('');
}
