// The lane's newest messages, laid out as the lane will, painted before the app's own code runs (src/app/boot.ts).
import type { MessageRow, PickerRow } from '../../../store/schema';
import type { MediaSize, StoredLaneHead, TurnItem } from '../../../store/laneHead';
import { attachmentBox } from '../media/mediaBox';
import { DELIVERY_ICONS, HEAD_ICON_PATHS, TURN_CHEVRON_PATH } from '../shell/headIconPaths';
import { agentName } from '../status/agentInfo';
import { authorName } from './author';
import { shownStatus } from './deliveryStatus';
import { HUGE_CHARS, HUGE_PREVIEW_LINES, OWN_PREVIEW_LINES, PREVIEW_CHARS, showAllLabel } from './collapse';
import {
  headBlocks,
  markdownLength,
  previewText,
  shownLength,
  textEnd,
  type HeadBlock,
  type HeadList,
} from './headBlocks';
import { cutText } from '../../../lib/cutText';
import { dayLabel, formatTime, startsDay } from './time';
import { markedRuns } from '../../../lib/markdownMarks';
import { activityLabel, thoughtLabel } from './turnLabels';
import { countLines, isLongText } from '../composer/longTextRule';
import { pickerOutcome } from '../pickers/pickerText';
import './LaneHead.css';

/** Messages in the head: more than a tall screen holds. */
export const HEAD_MESSAGES = 12;

export interface LaneHeadView {
  /** The lane it shows. */
  lane: string;
  /** Takes it off the screen (once the lane has placed its rows). */
  remove(): void;
}

const SVG = 'http://www.w3.org/2000/svg';

/**
 * A text's runs, its inline marks drawn as the lane's Markdown draws them (for their widths), as text nodes.
 * A link is drawn as one (LaneHead.css) but is words only: nothing in the head can be followed or pressed.
 */
function inline(text: string): Node[] {
  return markedRuns(text).map((run) => {
    if (!run.mark) return document.createTextNode(run.text);
    if (run.mark === 'link') return el('span', 'lane-head-link', run.text);
    const node = document.createElement(run.mark);
    node.textContent = run.text;
    return node;
  });
}

/** An element of `cls` holding `text` with its inline marks. */
function marked<K extends keyof HTMLElementTagNameMap>(tag: K, cls: string, text: string): HTMLElementTagNameMap[K] {
  const node = el(tag, cls);
  node.append(...inline(text));
  return node;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

function icon(name: keyof typeof HEAD_ICON_PATHS): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  for (const [k, v] of Object.entries({
    class: 'icon',
    viewBox: '0 0 24 24',
    width: '24',
    height: '24',
    fill: 'none',
    stroke: 'currentColor',
    'stroke-width': '1.8',
    'stroke-linecap': 'round',
    'stroke-linejoin': 'round',
    'aria-hidden': 'true',
  }))
    svg.setAttribute(k, v);
  const path = document.createElementNS(SVG, 'path');
  path.setAttribute('d', HEAD_ICON_PATHS[name]);
  svg.append(path);
  return svg;
}

function button(name: keyof typeof HEAD_ICON_PATHS, extra = ''): HTMLElement {
  const span = el('span', `lane-head-button${extra}`);
  span.append(icon(name));
  return span;
}

/**
 * About how many characters fill the screen, generously (7 px a character, 20 px a line: the lane's text
 * is larger): the older messages past that would be laid out only to be hidden above the top.
 */
const screenful = () => Math.ceil((innerWidth / 7) * (innerHeight / 20));

/** What the head draws of a message's text, and whether that is the lane's preview of it (with "Show all"). */
interface Drawn {
  text: string;
  preview: boolean;
}

/**
 * The start of a text the lane previews (a long own text's first lines, a huge one's first 40, at most
 * PREVIEW_CHARS); else the end a screen shows of it (the head's rows end at the screen's bottom), which
 * keeps a 1 MB answer's paint to a screenful.
 */
function drawnText(row: MessageRow): Drawn {
  const text = row.text;
  const long = row.role === 'user' && isLongText(text);
  const preview = long || (text.length > HUGE_CHARS && markdownLength(text) > HUGE_CHARS);
  return preview
    ? { text: cutText(previewText(text, long ? OWN_PREVIEW_LINES : HUGE_PREVIEW_LINES), PREVIEW_CHARS), preview }
    : { text: textEnd(text, screenful()), preview };
}

/**
 * The newest of `rows` that fill the screen (the newest always), oldest first, each with what is drawn
 * of it: weighed by what it shows (a reply with a 300-line code block shows 20 of them), or the head drew
 * too few rows, from the top, where the lane shows them at the bottom.
 */
function onScreen(rows: MessageRow[]): Map<MessageRow, Drawn> {
  const screen = screenful();
  let budget = screen;
  const drawn: [MessageRow, Drawn][] = [];
  for (let from = rows.length; from > 0 && budget > 0;) {
    const row = rows[--from]!;
    const text = drawnText(row);
    budget -= Math.min(shownLength(text.text), screen) + 80;
    drawn.unshift([row, text]);
  }
  return new Map(drawn);
}

/** The lane's "Show all" of a cut text (collapse.ts), as a line the head draws in its place. */
const showAll = (lines: number, chars: number, cls: string) => el('div', cls, showAllLabel(lines, chars));

/** A list, numbered from its start, its items spaced when loose, with the lists indented under them. */
function listOf(b: HeadList): HTMLElement {
  const list = el(b.ordered ? 'ol' : 'ul', b.loose ? 'lane-head-items lane-head-loose' : 'lane-head-items');
  list.dir = 'auto'; // as markdown.ts gives the lane's lists, quotes and tables
  if (b.ordered && b.start !== 1) list.setAttribute('start', String(b.start));
  list.append(
    ...b.items.map((item) => {
      const li = marked('li', '', item.text);
      if (item.sub) li.append(listOf(item.sub));
      return li;
    }),
  );
  return list;
}

/** One block, drawn with the boxes and spacing the lane's Markdown gives it (LaneHead.css). */
function block(b: HeadBlock, inPreview: boolean): HTMLElement {
  switch (b.kind) {
    case 'p':
      return marked('p', 'lane-head-p', b.text);
    case 'h':
      return marked('p', `lane-head-h lane-head-h${Math.min(b.level, 3)}`, b.text);
    case 'quote': {
      const quote = marked('p', 'lane-head-quote', b.text);
      quote.dir = 'auto';
      return quote;
    }
    case 'hr':
      return el('hr', 'lane-head-hr');
    case 'table': {
      const table = el('table', '');
      const [header = [], ...rows] = b.rows;
      // Aligned as the delimiter row says, as marked does it (an align attribute, Markdown.css).
      const cell = (tag: 'th' | 'td', text: string, i: number) => {
        const node = marked(tag, '', text);
        if (b.align[i]) node.setAttribute('align', b.align[i]!);
        return node;
      };
      const head = el('tr', '');
      head.append(...header.map((text, i) => cell('th', text, i)));
      table.append(
        head,
        ...rows.map((cells) => {
          const tr = el('tr', '');
          tr.append(...header.map((_, i) => cell('td', cells[i] ?? '', i)));
          return tr;
        }),
      );
      const box = el('div', 'lane-head-table');
      box.dir = 'auto';
      box.append(table);
      return box;
    }
    case 'list':
      return listOf(b);
    case 'code': {
      const box = el('div', 'lane-head-code');
      const bar = el('div', 'lane-head-code-bar');
      bar.append(el('span', 'lane-head-code-lang', b.lang), el('span', 'lane-head-copy', 'Copy code'));
      const pre = el('pre', '');
      pre.append(el('code', '', b.shown));
      box.append(bar, pre);
      if (b.collapsed && !inPreview) box.append(showAll(b.lines, b.chars, 'lane-head-more lane-head-code-more'));
      return box;
    }
  }
}

/** A message's text as the lane lays it out (drawnText), with the lane's "Show all" of a preview. */
function body(text: string, drawn: Drawn): HTMLElement {
  const md = el('div', 'lane-head-md');
  md.append(...headBlocks(drawn.text).map((b) => block(b, drawn.preview)));
  if (drawn.preview) md.append(showAll(countLines(text), text.length, 'lane-head-more'));
  return md;
}

/** A filled icon of `d`, `width` × `height` px. */
function filledIcon(cls: string, d: string, width: number, height: number): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  for (const [k, v] of Object.entries({ class: cls, viewBox: '0 0 24 24', width, height, 'aria-hidden': 'true' }))
    svg.setAttribute(k, String(v));
  const path = document.createElementNS(SVG, 'path');
  path.setAttribute('fill', 'currentColor');
  path.setAttribute('d', d);
  svg.append(path);
  return svg;
}

/** The chevron after each of the line's words, as the lane's buttons have (TurnSummary's Chevron). */
const chevron = () => filledIcon('lane-head-chevron', TURN_CHEVRON_PATH, 16, 16);

/**
 * A sent message's mark beside its time (DeliveryState's clock, ✓ or ✓✓), so the time does not move
 * aside when the lane draws it. A failed one gets none: the lane's "Not sent" line is its own.
 */
function deliveryMark(row: MessageRow, agentTs: number | undefined): HTMLElement | undefined {
  const status = shownStatus(row, agentTs);
  if (status !== 'pending' && status !== 'sent' && status !== 'read') return undefined;
  const mark = el('span', status === 'read' ? 'lane-head-delivery read' : 'lane-head-delivery');
  mark.append(filledIcon('', DELIVERY_ICONS[status].d, DELIVERY_ICONS[status].width, 14));
  return mark;
}

/** The turn's line the lane shows above a reply ("Thought for 2 s ›  Used 2 tools · 24 ms ›"), or none. */
function turnLine(row: MessageRow, items: TurnItem[] | undefined): HTMLElement | undefined {
  const words = [...(row.reasoning ? [thoughtLabel(row.thought_ms)] : []), ...(items ? [activityLabel(items)] : [])];
  if (!words.length) return undefined;
  const line = el('p', 'lane-head-turn');
  line.append(
    ...words.map((text) => {
      const word = el('span', 'lane-head-turn-word');
      word.append(el('span', '', text), chevron());
      return word;
    }),
  );
  return line;
}

/** The boxes of a message's files, sized as the lane's (MessageMedia), or none. */
function attachments(row: MessageRow, sizes: Record<string, MediaSize> | undefined): HTMLElement | undefined {
  const boxes = (row.media ?? []).flatMap((item) => {
    const size = sizes?.[item.media_id];
    const box = attachmentBox(item.kind, size?.width, size?.height);
    // A file or a sound: the chip's room (MessageMedia's stand-in, Media.css).
    if (!box) return [el('div', 'lane-head-chip')];
    const node = el('div', 'lane-head-picture');
    for (const [name, value] of Object.entries(box)) node.style.setProperty(name, String(value));
    return [node];
  });
  if (!boxes.length) return undefined;
  const media = el('div', 'lane-head-media');
  media.append(...boxes);
  return media;
}

function message(
  row: MessageRow,
  drawn: Drawn,
  agent: string,
  head: StoredLaneHead,
  agentTs: number | undefined,
): HTMLElement {
  const time = el('span', 'lane-head-time', formatTime(row.ts));
  const media = attachments(row, head.media);
  if (row.role === 'user') {
    const item = el('li', 'lane-head-msg lane-head-user');
    const foot = el('p', 'lane-head-foot');
    foot.append(time);
    const mark = deliveryMark(row, agentTs);
    if (mark) foot.append(mark);
    const bubble = el('div', 'lane-head-bubble');
    if (media) bubble.append(media);
    if (row.text) bubble.append(body(row.text, drawn));
    item.append(bubble, foot);
    return item;
  }
  const item = el('li', 'lane-head-msg');
  const author = el('p', 'lane-head-author');
  author.append(el('span', 'lane-head-name', authorName(row.role, agent)), time);
  item.append(author);
  const line = turnLine(row, row.turn ? head.activity?.[row.turn] : undefined);
  if (line) item.append(line);
  if (row.text) item.append(body(row.text, drawn));
  if (media) item.append(media);
  // As MessageItem: a reply the person stopped (on any device) says so under it.
  if (row.stopped && row.status !== 'streaming') item.append(el('p', 'lane-head-stopped', 'Stopped'));
  return item;
}

/** A question answered or closed, as the lane's card (PickerCard) words it. */
function pickerCard(picker: PickerRow, agent: string): HTMLElement {
  const { question, answer } = pickerOutcome(picker, agent);
  const card = el('li', 'lane-head-picker');
  const arrow = el('span', 'lane-head-picker-arrow', '→');
  arrow.setAttribute('aria-hidden', 'true');
  card.append(
    el('span', 'lane-head-picker-question', question),
    arrow,
    el('span', picker.state === 'closed' ? 'lane-head-picker-answer closed' : 'lane-head-picker-answer', answer),
  );
  return card;
}

/**
 * The question cards among `shown` (the lane's newest messages, oldest first), each after the messages
 * before it was asked, as the lane places them (settledPickerPlaces); those asked before the first shown
 * message are above the screen, unless the lane is drawn from its start.
 */
function cardsAfter(shown: MessageRow[], pickers: PickerRow[], atStart: boolean): Map<number, PickerRow[]> {
  const after = new Map<number, PickerRow[]>();
  for (const picker of pickers) {
    const count = shown.filter((m) => m.ts <= picker.ts).length;
    if (count === 0 && !atStart) continue;
    after.set(count, [...(after.get(count) ?? []), picker]);
  }
  return after;
}

/**
 * The first screen of a lane opened at start, over the whole page while the app's code, the frame,
 * the lane's own code and the Markdown pipeline load; Root.tsx removes it once the lane's list has placed
 * its rows. It is laid out as the lane it turns into (the top bar with the channel's name, the sidebar's
 * place on a wide screen, the author lines and bubbles, the composer's bar), so nothing moves when the lane
 * replaces it; its controls are drawn, not live. Plain DOM, text as text (nothing from the gateway becomes
 * HTML), no Solid: it is painted before the framework is evaluated.
 */
export function showLaneHead(head: StoredLaneHead, parent: HTMLElement = document.body): LaneHeadView {
  const agent = agentName(head.gatewayStatus);
  const root = el('div', 'lane-head');
  const side = el('div', 'lane-head-side');
  side.setAttribute('aria-hidden', 'true');
  side.append(el('div', 'lane-head-side-bar', 'Channels'));

  const main = el('main', 'lane-head-main');
  main.setAttribute('aria-busy', 'true');
  main.setAttribute('aria-label', 'Conversation (loading)');
  const bar = el('div', 'lane-head-bar');
  bar.setAttribute('aria-hidden', 'true');
  bar.append(
    button('menu', ' lane-head-menu'),
    el('span', 'lane-head-title', head.channel?.name ?? 'Conversation'),
    button('search'),
    button('settings'),
  );
  // A short lane starts at the top, as the lane does; a long one shows its newest at the bottom.
  const short = head.messages.length < HEAD_MESSAGES;
  const list = el('ol', short ? 'lane-head-list lane-head-short' : 'lane-head-list');
  // When the agent last wrote (the lane's laneAgentTs): a message of the person's drawn here is among the
  // newest, so any reply after it is in these rows too.
  let agentTs: number | undefined;
  for (const row of head.messages)
    if (row.role === 'assistant' && (agentTs === undefined || row.ts > agentTs)) agentTs = row.ts;
  // Between two rows of different days (messages, or a question's card), the day's line, as the lane draws
  // it (a conversation that went on past midnight moved by that line when the lane took over).
  const drawn = onScreen(head.messages);
  const shown = [...drawn.keys()];
  // A short lane drawn whole is at its start: the lane's words for it, and its first message's day.
  const atStart = short && shown.length === head.messages.length;
  if (atStart) {
    list.classList.add('lane-head-whole');
    const start = el('li', 'lane-head-start');
    start.append(el('span', '', 'This is the beginning of the conversation.'));
    list.append(start);
  }
  // The rows in the lane's order: each question's card after the messages before it was asked.
  const cards = cardsAfter(shown, head.pickers ?? [], atStart);
  const cardsAt = (count: number) => (cards.get(count) ?? []).map((picker) => ({ ts: picker.ts, picker }));
  const rows = [...cardsAt(0), ...shown.flatMap((row, i) => [{ ts: row.ts, row }, ...cardsAt(i + 1)])];
  list.append(
    ...rows.flatMap((item, i) => {
      const node =
        'row' in item ? message(item.row, drawn.get(item.row)!, agent, head, agentTs) : pickerCard(item.picker, agent);
      if (!startsDay(item.ts, rows[i - 1], atStart)) return [node];
      const day = el('li', 'lane-head-day');
      day.append(el('span', '', dayLabel(item.ts)));
      return [day, node];
    }),
  );
  const composer = el('div', 'lane-head-composer');
  composer.setAttribute('aria-hidden', 'true');
  const row = el('div', 'lane-head-row');
  row.append(el('span', 'lane-head-box', 'Message'), el('span', 'lane-head-send'));
  composer.append(row);
  main.append(bar, list, composer);
  root.append(side, main);
  parent.append(root);
  return { lane: head.lane, remove: () => root.remove() };
}
