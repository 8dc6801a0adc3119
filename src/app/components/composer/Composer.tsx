import { Show, createEffect, createSignal, createUniqueId, on, onCleanup, onMount } from 'solid-js';
import type { CommandInfo } from '../../../protocol';
import { live } from '../../../store/live';
import { laneNewest, laneRow } from '../messages/laneWindow';
import { getSetting, setDraft, setPastedDraft } from '../../../store/models/settings';
import { formatBytes } from '../../../lib/format';
import { useIris, type RuntimeParts } from '../../../runtime';
import { replyTarget, setReplyTarget } from '../messages/replyTarget';
import { DEFAULT_AGENT_NAME, agentName, agentSteers } from '../status/agentInfo';
import { DESKTOP_QUERY, createMediaQuery } from '../shell/mediaQuery';
import { AttachButton } from '../media/AttachButton';
import { RecordButton } from '../media/RecordButton';
import { loadOutgoing, useComposerMedia } from '../media/composerMedia';
import { SlashMenu } from './SlashMenu';
import { agentWorking, composerMode, replyEnded, type ComposerMode } from './composerMode';
import { createComposerText } from './composerText';
import { createPageDraftWriter, type PageDraftWriter } from './draftWriter';
import { LONG_TEXT_FILENAME, planOutgoing } from './longText';
import { cleanCommands, commandText, moveActive, pickCommand, slashPrefix } from './slash';
import { loadWhenIdle } from '../../loadWhenIdle';
import { startWhenIdle, type ServiceLoad } from '../../startWhenIdle';
import { lazyPart } from '../../lazy/lazyPart';
import './Composer.css';
import { textDirection } from '../../../lib/textDirection';

// What only an action brings (an attachment, a long paste, a drag of files) loads then:
// each comes in a few milliseconds (from the service worker's cache offline) into a place that was empty.
// They are fetched once the lane is idle (loadWhenIdle.ts), so a first visit has them offline too.
// The slash menu stays in the lane's chunk: typing "/" completes offline from the first visit on.
const loadChips = () => import('../media/AttachmentChips');
const loadPasted = () => import('./PastedText');
const loadDropOverlay = () => import('../media/DropOverlay');
const loadRecorder = () => import('../../../media/recorder');
const AttachmentChips = lazyPart(() => loadChips().then((m) => m.AttachmentChips));
const PastedText = lazyPart(() => loadPasted().then((m) => m.PastedText));
const DropOverlay = lazyPart(() => loadDropOverlay().then((m) => m.DropOverlay));

/** One writer for the whole page (runtime.shared), flushed when the page is hidden so a reload keeps what was typed. */
function startDraftWriter({ db }: RuntimeParts): PageDraftWriter {
  return createPageDraftWriter((lane, text) => setDraft(db, lane, text));
}

/** The same for the collapsed long texts' drafts (their own setting). */
function startPastedWriter({ db }: RuntimeParts): PageDraftWriter {
  return createPageDraftWriter((lane, text) => setPastedDraft(db, lane, text), 200);
}

/**
 * The local search index is built when the app first shows a lane, once the page is idle
 * (startWhenIdle.ts), from its own chunk, so offline search is ready without weighing on the first paint.
 */
const loadSearchIndex: ServiceLoad = () => import('../../../search/appIndex').then((m) => m.startLocalIndex);

function errorText(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'That did not work. Try again.';
}

/** The message composer of a lane. Each lane gets its own instance (draft, reply target, menu). */
export function Composer(props: { lane: string }) {
  return (
    <Show when={props.lane} keyed>
      {(lane) => <LaneComposer lane={lane} />}
    </Show>
  );
}

function LaneComposer(props: { lane: string }) {
  const iris = useIris();
  const { db, client } = iris;
  // eslint-disable-next-line solid/reactivity -- LaneView is keyed on the lane: the lane never changes under a mounted component
  const lane = props.lane;
  const writer = iris.shared(startDraftWriter);
  const laneState = laneRow(db, lane);
  // Offline, a busy mark may be stale and a steer or stop could not reach the agent: just queue messages.
  const newest = laneNewest(db, lane);
  const working = () => client.state() === 'online' && agentWorking(laneState(), newest()) && !replyEnded(newest());
  // Enter sends where there is a keyboard (a fine pointer or a wide screen); on phones it is a newline.
  const finePointer = createMediaQuery('(pointer: fine)');
  const wide = createMediaQuery(DESKTOP_QUERY);
  const enterSends = () => finePointer() || wide();

  let textarea!: HTMLTextAreaElement;
  const input = createComposerText({
    lane,
    db,
    writer,
    pastedWriter: iris.shared(startPastedWriter),
    textarea: () => textarea,
    onEdit: () => {
      setError('');
      setNotice('');
    },
  });
  const text = input.text;
  const [attachments, setAttachments] = createSignal<string[]>([]);
  const [error, setError] = createSignal('');
  const [notice, setNotice] = createSignal('');
  // Attachments: picker, paste, drop and voice recordings, stored at once (media issue).
  const media = useComposerMedia({ lane, attachments, setAttachments, setError });
  // A file chosen a moment ago is still being stored, and the message that takes it waits for it.
  const [awaitingFiles, setAwaitingFiles] = createSignal(false);
  // An agent that cannot be steered (the gateway's status says so) gets text typed during a reply as a message.
  const steers = live(async () => agentSteers(await getSetting(db, 'gatewayStatus')), true);
  const agent = live(async () => agentName(await getSetting(db, 'gatewayStatus')), DEFAULT_AGENT_NAME);
  const mode = () => composerMode(working(), input.pasted() || text(), steers(), attachments().length > 0);

  // Slash-command menu.
  const menuId = createUniqueId();
  const optionId = (i: number) => `${menuId}-opt-${i}`;
  const [matches, setMatches] = createSignal<CommandInfo[]>([]);
  const [active, setActive] = createSignal(-1);
  const [dismissedAt, setDismissedAt] = createSignal<string | undefined>(undefined);
  const menuOpen = () => {
    const prefix = slashPrefix(text());
    return prefix !== undefined && prefix !== dismissedAt() && matches().length > 0;
  };
  let completion = 0;
  createEffect(
    on(text, (value) => {
      const prefix = slashPrefix(value);
      const request = ++completion;
      if (prefix === undefined) {
        setMatches([]);
        setDismissedAt(undefined);
        return;
      }
      client
        .complete(prefix)
        .then((list) => {
          if (request !== completion) return;
          setMatches(cleanCommands(list));
          setActive(-1);
        })
        .catch(() => {
          if (request === completion) setMatches([]);
        });
    }),
  );

  onMount(() => {
    onCleanup(startWhenIdle(iris, loadSearchIndex, 3000));
    loadWhenIdle([loadChips, loadPasted, loadDropOverlay, loadRecorder, loadOutgoing]);
  });
  onCleanup(() => void writer.flush());
  // Choosing "Reply" on a message puts the cursor here, ready to type the reply.
  createEffect(
    on(
      () => replyTarget(lane)?.message_id,
      (id) => {
        if (id) textarea.focus();
      },
      { defer: true },
    ),
  );

  function pick(command: CommandInfo) {
    input.setText(pickCommand(command));
    setMatches([]);
    textarea.focus();
    const end = textarea.value.length;
    textarea.setSelectionRange(end, end);
  }

  // Sends go one after another, in the order they were asked for: the next Enter can come while the message
  // before is still being stored (ignored, it left that message in the box). A stop or a steer waits for
  // the sends before it but holds up none after it: it waits for the gateway's answer, which a gateway may
  // never give (then the next message showed nothing for the request's 15 s).
  let queue: Promise<void> = Promise.resolve();
  async function run(action: () => Promise<unknown>, restore?: () => void, holds = true) {
    const turn = queue.then(async () => {
      setError('');
      try {
        await action();
      } catch (e) {
        restore?.();
        setError(errorText(e));
      }
    });
    if (holds) queue = turn;
    await turn;
  }

  // A stop holds up no send after it: it waits for the gateway's answer, which a gateway may never give.
  const stop = () => run(() => client.stopAgent(lane), undefined, false);

  async function submit() {
    if (awaitingFiles()) return;
    if (media.adding() > 0) {
      // A file chosen a moment ago is still being stored: it goes with this message, as the person meant.
      setAwaitingFiles(true);
      try {
        await media.added();
      } finally {
        setAwaitingFiles(false);
      }
    }
    input.sync();
    const typed = text();
    const pasted = input.pasted();
    const value = input.message();
    const current = mode();
    if (current === 'stop') {
      await stop();
      return;
    }
    const files = attachments();
    if (value.trim() === '' && files.length === 0) return;
    const reply = replyTarget(lane);
    // Over the gateway's frame limit the long text goes as a file; a steer is text only.
    const plan = planOutgoing(typed, pasted);
    if (current === 'steer' && plan.kind === 'attachment') {
      setError('This text is too long to steer the reply with. Send it once the reply is done; it stays here.');
      return;
    }
    // Cleared at once (the message shows in the list as pending); put back if the command fails.
    input.setText('');
    input.setPasted('');
    // A steer is text only: the attachments wait for the next message.
    if (current !== 'steer') setAttachments([]);
    const restore = () => {
      input.setText(typed);
      input.setPasted(pasted);
      setAttachments(files);
      if (reply) setReplyTarget(lane, reply);
    };
    if (current === 'steer') {
      await input.clearDrafts();
      await run(() => client.steerOrSend(lane, value), restore, false);
    } else {
      setReplyTarget(lane, undefined);
      await input.clearDrafts();
      let staged: string | undefined;
      await run(
        async () => {
          let sent = value;
          let withFiles = files;
          if (plan.kind === 'attachment') {
            const file = new File([plan.file], LONG_TEXT_FILENAME, { type: 'text/plain' });
            staged = (await (await loadOutgoing()).stageAttachment(db, file, { lane })).media_id;
            sent = plan.text;
            withFiles = [...files, staged];
          }
          await client.send(lane, sent, {
            ...(reply && { reply_to: reply.message_id }),
            ...(withFiles.length > 0 && { attachments: withFiles }),
          });
          if (plan.kind === 'attachment') {
            const size = formatBytes(new Blob([plan.file]).size);
            setNotice(
              `The text is ${size}, more than one message can carry, so it was sent as the file ${LONG_TEXT_FILENAME}.`,
            );
          }
        },
        () => {
          // The file made for the text is not offered as an attachment again: the text itself comes back.
          const made = staged;
          if (made) void loadOutgoing().then((m) => m.unstageAttachment(db, made));
          restore();
        },
      );
    }
    textarea.focus();
  }

  function onKeyDown(e: KeyboardEvent) {
    if (e.isComposing || e.keyCode === 229) return;
    input.sync();
    if (menuOpen()) {
      const count = matches().length;
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        setActive(moveActive(active(), e.key === 'ArrowDown' ? 1 : -1, count));
        return;
      }
      // Enter on a fully typed command with nothing chosen in the list sends it as typed.
      const typedWhole =
        e.key === 'Enter' && active() < 0 && matches().some((c) => commandText(c) === text().toLowerCase());
      if (!typedWhole && !e.shiftKey && (e.key === 'Enter' || e.key === 'Tab')) {
        e.preventDefault();
        pick(matches()[Math.max(0, active())]);
        return;
      }
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        setDismissedAt(text());
        return;
      }
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.altKey && enterSends()) {
      e.preventDefault();
      void submit();
    }
  }

  // While the agent works, what is typed goes into its reply: say that in words a person uses, short enough
  // for one line on any phone whatever the agent's name (a wrapped placeholder grows the box: a layout shift).
  const placeholder = () => (working() ? 'Tell it what to change…' : 'Message');
  const buttonLabel = () => ({ send: 'Send', steer: 'Steer', stop: 'Stop' })[mode()];
  const buttonTitle = () =>
    ({ send: 'Send', steer: `Send to ${agent()} while it works`, stop: 'Stop the reply' })[mode()];
  const canPress = () =>
    mode() === 'stop' ||
    input.pasted() !== '' ||
    text().trim() !== '' ||
    attachments().length > 0 ||
    media.adding() > 0;

  return (
    <form
      class="composer"
      classList={{ working: working() }}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <Show when={replyTarget(lane)}>
        {(reply) => (
          <div class="composer-reply">
            <div class="composer-reply-text">
              <span class="composer-reply-author">Replying to {reply().author}</span>
              <span class="composer-reply-quote" dir="auto">
                {firstLine(reply().text)}
              </span>
            </div>
            <button
              type="button"
              class="composer-icon-button"
              aria-label="Cancel reply"
              onClick={() => {
                setReplyTarget(lane, undefined);
                textarea.focus();
              }}
            >
              <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
                <path d="M6 6l12 12M18 6L6 18" />
              </svg>
            </button>
          </div>
        )}
      </Show>
      <Show when={attachments().length > 0}>
        <AttachmentChips ids={attachments()} onRemove={media.remove} />
      </Show>
      <Show when={input.pasted()}>
        {(long) => (
          <PastedText
            text={long()}
            onEdit={() => {
              input.expand();
              textarea.focus();
            }}
            onRemove={() => {
              input.setPasted('');
              textarea.focus();
            }}
          />
        )}
      </Show>
      <div class="composer-row">
        {/* One pill holds attach, the text and the microphone, so the text gets the width. */}
        <div class="composer-box" classList={{ typing: text() !== '' }}>
          <AttachButton onFiles={(files) => void media.addFiles(files)} />
          <div class="composer-field">
            <Show when={menuOpen()}>
              <SlashMenu id={menuId} commands={matches()} active={active()} optionId={optionId} onPick={pick} />
            </Show>
            <textarea
              ref={textarea}
              class="composer-input"
              name="message"
              dir={textDirection(text())}
              aria-label="Message"
              aria-autocomplete="list"
              aria-controls={menuOpen() ? menuId : undefined}
              aria-activedescendant={menuOpen() && active() >= 0 ? optionId(active()) : undefined}
              placeholder={placeholder()}
              rows={1}
              autocomplete="off"
              enterkeyhint={enterSends() ? 'send' : 'enter'}
              onInput={input.onInput}
              onKeyDown={onKeyDown}
              onPaste={(e) => {
                media.onPaste(e);
                if (!e.defaultPrevented) input.onPaste(e);
              }}
            />
          </div>
          <span class="composer-record">
            <RecordButton onRecorded={(recording) => void media.addRecording(recording)} onError={setError} />
          </span>
        </div>
        <button
          type="submit"
          class="composer-send"
          classList={{ stop: mode() === 'stop', steer: mode() === 'steer' }}
          disabled={!canPress() || awaitingFiles()}
          title={buttonTitle()}
        >
          <SendIcon mode={mode()} />
          {/* The name is the text (tests and scripts read it); the icon says it to the eye. */}
          <span class="visually-hidden">{buttonLabel()}</span>
        </button>
        {/* Text or files in the box make the main button steer or send; Stop stays at the end of the row,
            where it was, so ending the reply never means clearing what was typed. */}
        <Show when={mode() !== 'stop' && working()}>
          <button type="button" class="composer-send stop" title="Stop the reply" onClick={() => void stop()}>
            <SendIcon mode="stop" />
            <span class="visually-hidden">Stop</span>
          </button>
        </Show>
      </div>
      <Show when={notice()}>
        <p class="composer-hint" role="status">
          {notice()}
        </p>
      </Show>
      <Show when={error()}>
        <p class="composer-error error-text" role="alert">
          {error()}
        </p>
      </Show>
      <Show when={media.dragging()}>
        <DropOverlay show />
      </Show>
    </form>
  );
}

/** Send: an arrow up; Stop: a square; Steer: an arrow into the reply. */
function SendIcon(props: { mode: ComposerMode }) {
  const path = () =>
    ({ send: 'M12 19V5M5.5 11.5L12 5l6.5 6.5', steer: 'M4 12h12M11 6l6 6-6 6M20 5v14', stop: 'M7 7h10v10H7z' })[
      props.mode
    ];
  return (
    <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" classList={{ filled: props.mode === 'stop' }}>
      <path d={path()} />
    </svg>
  );
}

function firstLine(text: string): string {
  const line = text.trim().split('\n', 1)[0] ?? '';
  return line.length > 120 ? line.slice(0, 119) + '…' : line;
}
