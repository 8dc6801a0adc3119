// The QR code library, behind one function: text in, a square matrix of dark modules out.
import qrcode from 'qrcode-generator';

/** The modules of a QR code for `text` (medium error correction, smallest version that fits). */
export function qrMatrix(text: string): boolean[][] {
  const code = qrcode(0, 'M');
  code.addData(text, 'Byte');
  code.make();
  const size = code.getModuleCount();
  return Array.from({ length: size }, (_, row) => Array.from({ length: size }, (_, col) => code.isDark(row, col)));
}
