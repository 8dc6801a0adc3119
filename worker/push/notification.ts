// How a push looks as a system notification: one per lane (replaced, with a count), one per open question
// (so a later message never replaces it), actions for answers that fit on buttons.
import type { Choice } from '../../src/protocol';
import type { PickerRow } from '../../src/store/schema';
import { NOTIFICATION_BADGE, NOTIFICATION_ICON } from '../../src/push/icons';
import { PICKER_TAG_PREFIX, laneTag, pickerTag } from '../../src/push/tags';
import { laneUrl, sameOriginUrl } from './links';
import type { IncomingPush } from './payload';

/** What a notification action answers: the picker value, and the words shown once it is done. */
export interface ActionAnswer {
  value: string;
  done: string;
}

/** `notification.data`: where a click goes and what its actions answer. */
export interface NotificationData {
  kind: string;
  url: string;
  count: number;
  lane?: string;
  chat_id?: string;
  thread_id?: string;
  message_id?: string;
  picker_id?: string;
  answers?: Record<string, ActionAnswer>;
}

export interface BuiltNotification {
  title: string;
  options: NotificationOptions & {
    actions?: { action: string; title: string }[];
    timestamp?: number;
    renotify?: boolean;
  };
}

const QUESTION_KINDS = new Set(['approval', 'clarify', 'confirm']);
const MAX_ACTION_TITLE = 40;

/** The notification's tag: a question has its own; everything else collapses per lane. */
export function notificationTag(push: IncomingPush): string {
  if (push.picker_id && QUESTION_KINDS.has(push.kind)) return pickerTag(push.picker_id);
  if (push.fromRelay) return `relay:${push.kind}`;
  return push.lane ? laneTag(push.lane) : `kind:${push.kind}`;
}

/** How many pushes an earlier notification with the same tag already stood for. */
export function previousCount(data: unknown): number {
  const count = (data as { count?: unknown } | null | undefined)?.count;
  return typeof count === 'number' && Number.isSafeInteger(count) && count > 0 ? Math.min(count, 9999) : 0;
}

function defaultTitle(kind: string): string {
  if (kind === 'approval') return 'Approval needed';
  if (kind === 'clarify' || kind === 'confirm') return 'A question for you';
  if (kind === 'cron') return 'Reminder';
  return 'Iris';
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The answers a question offers as buttons, when they fit; none otherwise (a tap opens the lane). */
export function questionAnswers(
  push: IncomingPush,
  picker: PickerRow | undefined,
  maxActions: number,
): { action: string; title: string; answer: ActionAnswer }[] {
  if (!push.picker_id || maxActions < 2) return [];
  const type =
    picker?.type ??
    (push.kind === 'approval' ? 'picker.approval' : push.kind === 'confirm' ? 'picker.confirm' : undefined);
  if (type === 'picker.approval') {
    return [
      { action: 'once', title: 'Approve once', answer: { value: 'once', done: 'Approved once' } },
      { action: 'deny', title: 'Deny', answer: { value: 'deny', done: 'Denied' } },
    ];
  }
  if (type === 'picker.confirm') {
    return [
      { action: 'yes', title: 'Yes', answer: { value: 'yes', done: 'Confirmed' } },
      { action: 'no', title: 'No', answer: { value: 'no', done: 'Declined' } },
    ];
  }
  if ((type === 'picker.clarify' || type === 'picker.choice') && picker) {
    const choices = (picker.payload as { choices?: Choice[] }).choices ?? [];
    // Only when every choice fits: offering some of them would hide the others.
    if (choices.length === 0 || choices.length > maxActions) return [];
    return choices.map((c, i) => {
      const label = cut(c.label || c.value, MAX_ACTION_TITLE);
      return { action: `choice-${i}`, title: label, answer: { value: c.value, done: `Answered: ${label}` } };
    });
  }
  return [];
}

export interface BuildContext {
  /** Pushes the notification this one replaces stood for (0: none). */
  previous: number;
  /** The question, if the app's DB has it (it carries clarify's choices; pushes do not). */
  picker?: PickerRow;
  maxActions: number;
  origin: string;
}

export function buildNotification(push: IncomingPush, ctx: BuildContext): BuiltNotification {
  const tag = notificationTag(push);
  const isQuestion = tag.startsWith(PICKER_TAG_PREFIX);
  const count = isQuestion ? 1 : ctx.previous + 1;
  const title = push.title || defaultTitle(push.kind);
  let body = push.body;
  if (count > 1)
    body = `${count} ${QUESTION_KINDS.has(push.kind) ? 'questions waiting' : 'new messages'}${body ? `\n${body}` : ''}`;
  const url = push.fromRelay ? (sameOriginUrl(push.click, ctx.origin) ?? '/') : laneUrl(push);
  const answers = questionAnswers(push, ctx.picker, ctx.maxActions);
  const data: NotificationData = { kind: push.kind, url, count };
  for (const key of ['lane', 'chat_id', 'thread_id', 'message_id', 'picker_id'] as const) {
    if (push[key] !== undefined) data[key] = push[key];
  }
  if (answers.length > 0) data.answers = Object.fromEntries(answers.map((a) => [a.action, a.answer]));
  return {
    title,
    options: {
      body,
      tag,
      icon: NOTIFICATION_ICON,
      badge: NOTIFICATION_BADGE,
      timestamp: push.ts,
      data,
      // A replaced notification alerts again; an open question stays until answered or dismissed.
      renotify: count > 1,
      requireInteraction: isQuestion,
      ...(answers.length > 0 && { actions: answers.map((a) => ({ action: a.action, title: a.title })) }),
    },
  };
}

/** The notification that replaces a question once its action was carried out (or failed). */
export function outcomeNotification(
  title: string,
  text: string,
  data: NotificationData,
  tag: string,
): BuiltNotification {
  const { answers: _answered, ...rest } = data;
  return {
    title,
    options: {
      body: text,
      tag,
      icon: NOTIFICATION_ICON,
      badge: NOTIFICATION_BADGE,
      timestamp: Date.now(),
      data: { ...rest, count: 1 },
      renotify: false,
      silent: true,
    },
  };
}

/** `notification.data`, checked: the notification may come from an older version of this worker. */
export function readNotificationData(value: unknown): NotificationData | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.kind !== 'string' || typeof v.url !== 'string') return undefined;
  return v as unknown as NotificationData;
}
