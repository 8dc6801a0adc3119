// What of a message's files reaches Hermes, and in what form. Hermes's API server takes text and
// pictures: a picture goes as an image part of the run's input; a small UTF-8 text file (a log, code, a
// CSV, notes) goes as its words, in the form Hermes's own chat adapters give a text document
// ("[Content of NAME]:" and the text, before the person's words), so the agent reads it as it would
// there. Anything else is named back to the person with the reason, never sent. The file's type and
// name are the client's claims: text is inlined only when its type or name says text and its bytes
// are UTF-8 with no NUL (a PDF or an archive can start with readable ASCII).
import type { MediaRef } from '../../../src/protocol';
import { baseMime } from '../../../src/protocol/mime';
import { formatBytes } from '../../../src/lib/format';

/** Pictures Hermes's vision model is given, and the most of one (base64 grows it by a third). */
const IMAGE_MIMES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif']);
const MAX_IMAGE_MB = 5;
/**
 * The most of one text file put into the prompt: a long log's worth, not a model's whole context. Of a
 * longer one Hermes gets the last lines up to it (where a log's failure is), and both it and the person are
 * told so: the API server has no way to hand Hermes the whole file, as its chat adapters do (by its path).
 */
const MAX_TEXT_KB = 100;
/**
 * The most of one message's pictures and text files together, and of the text files repeated from earlier
 * messages in a run's history: Hermes's API server takes a request body of at most 10 MB, and a lane
 * whose history outgrew it would fail every run after.
 */
const MAX_PICTURES_MB = 6;
const MAX_TEXTS_KB = 400;
const MAX_EARLIER_TEXTS_KB = 256;

/** Types that are text whatever their name (besides text/*). */
const TEXT_MIMES = new Set([
  'application/json',
  'application/ld+json',
  'application/x-ndjson',
  'application/xml',
  'application/yaml',
  'application/x-yaml',
  'application/toml',
  'application/javascript',
  'application/x-javascript',
  'application/typescript',
  'application/x-sh',
  'application/x-shellscript',
  'application/sql',
  'application/x-subrip',
]);

/** Names that are text whatever type the browser gave them (often none, or application/octet-stream). */
const TEXT_EXTENSIONS = new Set(
  (
    'txt text md markdown rst adoc org tex csv tsv log json jsonl ndjson yaml yml toml ini cfg conf env properties ' +
    'xml html htm css scss less svg js mjs cjs jsx ts tsx py pyi rb php pl lua r jl go rs c h cc cpp hpp cs java kt ' +
    'scala swift m ex exs erl hs ml clj sh bash zsh fish ps1 bat sql graphql proto tf hcl gradle cmake mk ' +
    'dockerfile makefile diff patch srt vtt'
  ).split(' '),
);

interface ImagePart {
  type: 'image_url';
  image_url: { url: string };
}

/** A file not sent (or sent in part), and why, in a person's words. */
interface FileNote {
  name: string;
  reason: string;
}

interface TextFile {
  name: string;
  /** "[Content of NAME]:" and its text. */
  words: string;
}

interface HermesAttachments {
  images: ImagePart[];
  texts: TextFile[];
  /** Text files of which Hermes gets the end only. */
  partial: FileNote[];
  refused: FileNote[];
}

/**
 * A file's name as shown to the agent: stored names are already one bounded segment (cleanFilename); here
 * only ordinary characters, so a `]` or a newline cannot end the "[Content of NAME]:" header early.
 */
function shownName(ref: MediaRef): string {
  return ref.filename.replace(/[^\w.\- ]/g, '_');
}

function looksLikeText(ref: MediaRef): boolean {
  const mime = baseMime(ref.mime);
  if (mime.startsWith('text/') || TEXT_MIMES.has(mime)) return true;
  const name = (ref.filename || '').toLowerCase();
  const ext = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1) : name;
  return TEXT_EXTENSIONS.has(ext);
}

/** The end of `bytes`, at most `max` of them, from the start of a line (or of a character, in one long line). */
function lastLines(bytes: Buffer, max: number): Buffer {
  let start = bytes.length - max;
  while (start < bytes.length && (bytes[start]! & 0xc0) === 0x80) start++;
  const newline = bytes.indexOf(0x0a, start);
  if (newline !== -1 && newline < bytes.length - 1) start = newline + 1;
  return bytes.subarray(start);
}

/** The bytes as text, or undefined when they are not UTF-8 text (invalid UTF-8, or a NUL byte). */
function utf8Text(bytes: Buffer): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    return undefined;
  }
}

/**
 * Sorts a message's files into what Hermes is given and what is named back; `bytesOf` reads a stored file.
 * Without `pictures`, pictures are passed over unread (a run's history repeats only earlier text files).
 */
export function hermesAttachments(
  refs: readonly MediaRef[],
  bytesOf: (mediaId: string) => Buffer | undefined,
  { pictures = true }: { pictures?: boolean } = {},
): HermesAttachments {
  const out: HermesAttachments = { images: [], texts: [], partial: [], refused: [] };
  let pictureBytes = 0;
  let textBytes = 0;
  for (const ref of refs) {
    const name = shownName(ref);
    const mime = baseMime(ref.mime);
    if (IMAGE_MIMES.has(mime)) {
      if (!pictures) continue;
      if (ref.size > MAX_IMAGE_MB * 1024 * 1024) {
        out.refused.push({ name, reason: `a picture over ${MAX_IMAGE_MB} MB` });
        continue;
      }
      if (pictureBytes + ref.size > MAX_PICTURES_MB * 1024 * 1024) {
        out.refused.push({
          name,
          reason: `past the ${MAX_PICTURES_MB} MB of pictures Hermes is sent with one message`,
        });
        continue;
      }
      pictureBytes += ref.size;
      const bytes = bytesOf(ref.media_id);
      if (bytes)
        out.images.push({ type: 'image_url', image_url: { url: `data:${mime};base64,${bytes.toString('base64')}` } });
      else out.refused.push({ name, reason: 'no longer stored here' });
      continue;
    }
    if (!looksLikeText(ref)) {
      const reason = mime.startsWith('image/')
        ? 'a kind of picture Hermes does not take; it takes PNG, JPEG, WebP and GIF'
        : mime.startsWith('audio/') || ref.kind === 'voice'
          ? "a recording: Hermes's API server takes no sound"
          : mime.startsWith('video/')
            ? "a video: Hermes's API server takes none"
            : 'neither a picture nor a text file';
      out.refused.push({ name, reason });
      continue;
    }
    const bytes = bytesOf(ref.media_id);
    if (!bytes) {
      out.refused.push({ name, reason: 'no longer stored here' });
      continue;
    }
    const whole = bytes.length <= MAX_TEXT_KB * 1024;
    const part = whole ? bytes : lastLines(bytes, MAX_TEXT_KB * 1024);
    if (textBytes + part.length > MAX_TEXTS_KB * 1024) {
      out.refused.push({ name, reason: `past the ${MAX_TEXTS_KB} KB of text files Hermes is sent with one message` });
      continue;
    }
    const text = utf8Text(part);
    if (text === undefined) {
      out.refused.push({ name, reason: 'not UTF-8 text' });
      continue;
    }
    textBytes += part.length;
    if (whole) out.texts.push({ name, words: `[Content of ${name}]:\n${text}` });
    else {
      const which = `its last ${formatBytes(part.length)} of ${formatBytes(bytes.length)}`;
      out.texts.push({ name, words: `[Content of ${name}, ${which}]:\n${text}` });
      out.partial.push({ name, reason: which });
    }
  }
  return out;
}

/** The person's words with the text files' contents before them (as Hermes's adapters put them). */
export function withTexts(text: string, texts: readonly TextFile[]): string {
  return [...texts.map((t) => t.words), text.trim()].filter((part) => part !== '').join('\n\n');
}

/**
 * An earlier message's words as a run's history repeats them: with its text files' words while `budget`
 * (characters, shared by the messages asked newest first) lasts, and past it their names only.
 */
export function earlierWords(
  text: string,
  refs: readonly MediaRef[],
  bytesOf: (mediaId: string) => Buffer | undefined,
  budget: { left: number },
): string {
  const texts = hermesAttachments(refs, bytesOf, { pictures: false }).texts.map((file) => {
    if (file.words.length <= budget.left) {
      budget.left -= file.words.length;
      return file;
    }
    budget.left = 0;
    const words = `[Content of ${file.name}]: (left out here: the conversation's earlier files are too long to repeat)`;
    return { name: file.name, words };
  });
  return withTexts(text, texts);
}

/** A run's budget for the words of earlier text files (earlierWords). */
export function earlierTextsBudget(): { left: number } {
  return { left: MAX_EARLIER_TEXTS_KB * 1024 };
}

/**
 * What the person is told of the files not sent or sent in part; `rest`: whether the rest of the message
 * went to Hermes. Undefined when every file went whole.
 */
export function filesNotice(files: HermesAttachments, rest: boolean): string | undefined {
  const list = (notes: readonly FileNote[]) => notes.map((f) => `**${f.name}** (${f.reason})`).join(', ');
  const said = [
    files.refused.length ? `Not sent to Hermes: ${list(files.refused)}.` : '',
    files.partial.length ? `Sent to Hermes in part: ${list(files.partial)}.` : '',
  ].filter((s) => s !== '');
  if (!said.length) return undefined;
  const limits = `Hermes reads pictures up to ${MAX_IMAGE_MB} MB and UTF-8 text files up to ${MAX_TEXT_KB} KB.`;
  const sent = files.refused.length && rest ? ' I sent Hermes the rest of your message.' : '';
  return `${said.join(' ')} ${limits}${sent}`;
}
