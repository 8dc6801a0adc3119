// How big a text frame may be. The spec fixes no limit for text frames (only 256 KiB binary chunks
// and the gateway's media limit); the reference gateway ignores text frames over 1 MiB with an error,
// and 1 MiB is also the default `max_size` of Python's `websockets`, on which a Hermes gateway
// closes the socket instead. The app keeps every frame it sends under it.
export const MAX_TEXT_FRAME_BYTES = 1024 * 1024;
/** Room for the envelope and the other fields of a `message.send` around its text. */
const ENVELOPE_ROOM_BYTES = 8 * 1024;

/** Bytes `text` takes inside a JSON frame: UTF-8, with JSON's escapes, quotes included. */
export function jsonTextBytes(text: string): number {
  let bytes = 2;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 || c === 0x5c || c === 0x08 || c === 0x0c || c === 0x0a || c === 0x0d || c === 0x09) bytes += 2;
    else if (c < 0x20) bytes += 6;
    else if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff)
      bytes += 6; // a lone surrogate is written as \udxxx
    else bytes += 3;
  }
  return bytes;
}

/** Whether a message with this text fits in one `message.send` frame. */
export function textFitsInFrame(text: string, limit = MAX_TEXT_FRAME_BYTES): boolean {
  // Cheap bounds first: every UTF-16 unit takes at least 1 and at most 6 bytes.
  if (text.length + 2 + ENVELOPE_ROOM_BYTES > limit) return false;
  if (text.length * 6 + 2 + ENVELOPE_ROOM_BYTES <= limit) return true;
  return jsonTextBytes(text) + ENVELOPE_ROOM_BYTES <= limit;
}
