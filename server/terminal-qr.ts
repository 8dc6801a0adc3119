// A QR code drawn in a terminal with half blocks (two modules a character), so a phone can scan the
// pairing link off the screen `npm start` prints.
import { qrMatrix } from '../src/lib/qrcode';

const QUIET = 2; // modules of light border; scanners need some, a terminal has little room

/**
 * The lines of a QR code for `text`. With `ansi`, light and dark are painted as white and black
 * (readable on any terminal theme); without, dark modules are drawn and light ones left blank, as on paper.
 */
export function terminalQr(text: string, ansi: boolean): string[] {
  const matrix = qrMatrix(text);
  const size = matrix.length + QUIET * 2;
  const dark = (row: number, col: number) => matrix[row - QUIET]?.[col - QUIET] === true;
  const lines: string[] = [];
  for (let row = 0; row < size; row += 2) {
    let line = '';
    for (let col = 0; col < size; col++) {
      const top = dark(row, col);
      const bottom = row + 1 < size && dark(row + 1, col);
      if (ansi) {
        // The upper half block in the top module's colour over the bottom module's colour.
        line += `\x1b[${top ? 30 : 97};${bottom ? 40 : 107}m▀`;
      } else {
        line += top && bottom ? '█' : top ? '▀' : bottom ? '▄' : ' ';
      }
    }
    lines.push(ansi ? `${line}\x1b[0m` : line.trimEnd());
  }
  return lines;
}
