import { createMemo } from 'solid-js';
import { qrMatrix } from '../../../lib/qrcode';
import { qrPath } from '../../../lib/qrPath';
import './QrCode.css';

const MARGIN = 4; // the quiet zone the QR standard asks for

/** A QR code as an inline SVG, black on white in both themes so every camera can read it. */
export function QrCode(props: { text: string; label: string }) {
  const matrix = createMemo(() => qrMatrix(props.text));
  const size = () => matrix().length + MARGIN * 2;
  return (
    <svg
      class="qr-code"
      role="img"
      aria-label={props.label}
      viewBox={`0 0 ${size()} ${size()}`}
      shape-rendering="crispEdges"
    >
      <rect width={size()} height={size()} fill="#ffffff" />
      <path d={qrPath(matrix(), MARGIN)} fill="#000000" />
    </svg>
  );
}
