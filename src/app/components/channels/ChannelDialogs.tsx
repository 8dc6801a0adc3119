import { For, Show, createEffect, createSignal, createUniqueId, type JSX } from 'solid-js';
import type { ChannelRow } from '../../../store/schema';
import { ModalDialog } from '../shell/ModalDialog';
import { COLOURS, SUGGESTED_ICONS, safeColor, textOn, trimIcon } from './channelLook';
import './ChannelDialogs.css';
import { textDirection } from '../../../lib/textDirection';

/** What the channel list asked to do with a dialog. */
export type ChannelAction =
  | { kind: 'new-channel' }
  | { kind: 'new-thread'; channel: ChannelRow }
  | { kind: 'rename'; channel: ChannelRow }
  | { kind: 'look'; channel: ChannelRow }
  | { kind: 'archive'; channel: ChannelRow };

export interface ChannelCommands {
  create: (name: string, parent?: ChannelRow) => Promise<void>;
  rename: (channel: ChannelRow, name: string) => Promise<void>;
  setLook: (channel: ChannelRow, icon: string, color: string) => Promise<void>;
  archive: (channel: ChannelRow) => Promise<void>;
}

const MAX_NAME = 80;

function errorText(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'That did not work. Try again.';
}

/** Runs a command for a dialog: busy while it runs, closes on success, shows the error in words. */
function useSubmit(onDone: () => void) {
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal('');
  const run = async (command: () => Promise<void>) => {
    if (busy()) return;
    setBusy(true);
    setError('');
    try {
      await command();
      onDone();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, run };
}

function DialogButtons(props: { busy: boolean; submitLabel: string; danger?: boolean; onCancel: () => void }) {
  return (
    <div class="modal-actions">
      <button type="button" class="button secondary" onClick={() => props.onCancel()}>
        Cancel
      </button>
      <button type="submit" class="button" classList={{ danger: props.danger }} disabled={props.busy}>
        {props.submitLabel}
      </button>
    </div>
  );
}

function ErrorLine(props: { text: string; id?: string }): JSX.Element {
  return (
    <Show when={props.text}>
      <p class="error-text" role="alert" id={props.id}>
        {props.text}
      </p>
    </Show>
  );
}

function NameForm(props: {
  initial: string;
  submitLabel: string;
  onSubmit: (name: string) => Promise<void>;
  onClose: () => void;
}) {
  const [name, setName] = createSignal(props.initial);
  // eslint-disable-next-line solid/reactivity -- the dialog's close callback is fixed for its life
  const submit = useSubmit(props.onClose);
  const errorId = createUniqueId();
  let input!: HTMLInputElement;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        const trimmed = name().trim();
        if (!trimmed) {
          submit.setError('Give it a name.');
          input.focus();
          return;
        }
        // eslint-disable-next-line solid/reactivity -- called from the submit handler, not at setup
        void submit.run(() => props.onSubmit(trimmed));
      }}
    >
      <label class="field">
        <span>Name</span>
        <input
          ref={input}
          name="name"
          dir={textDirection(name())}
          aria-invalid={submit.error() ? true : undefined}
          aria-describedby={submit.error() ? errorId : undefined}
          autocomplete="off"
          maxlength={MAX_NAME}
          required
          autofocus
          value={name()}
          onInput={(e) => setName(e.currentTarget.value)}
        />
      </label>
      <ErrorLine text={submit.error()} id={errorId} />
      <DialogButtons busy={submit.busy()} submitLabel={props.submitLabel} onCancel={props.onClose} />
    </form>
  );
}

function LookForm(props: {
  channel: ChannelRow;
  onSubmit: (icon: string, color: string) => Promise<void>;
  onClose: () => void;
}) {
  // eslint-disable-next-line solid/reactivity -- the form edits a copy: the row's value is only where it starts
  const [icon, setIcon] = createSignal(props.channel.icon ?? '');
  // eslint-disable-next-line solid/reactivity -- the form edits a copy: the row's value is only where it starts
  const [color, setColor] = createSignal(safeColor(props.channel.color) ?? '');
  // eslint-disable-next-line solid/reactivity -- the dialog's close callback is fixed for its life
  const submit = useSubmit(props.onClose);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        // eslint-disable-next-line solid/reactivity -- called from the submit handler, not at setup
        void submit.run(() => props.onSubmit(trimIcon(icon()), color()));
      }}
    >
      <div class="look-preview" aria-hidden="true">
        <span
          class="channel-icon large"
          classList={{ colored: !!color() }}
          style={color() ? { 'background-color': color(), color: textOn(color()) } : undefined}
        >
          {trimIcon(icon()) || '#'}
        </span>
        <span class="look-preview-name">{props.channel.name}</span>
      </div>
      <label class="field">
        <span>Icon (an emoji)</span>
        <input
          name="icon"
          autocomplete="off"
          maxlength={16}
          value={icon()}
          onInput={(e) => setIcon(e.currentTarget.value)}
        />
      </label>
      <fieldset class="look-fieldset">
        <legend>Suggestions</legend>
        <div class="icon-suggestions">
          <For each={SUGGESTED_ICONS}>
            {(emoji) => (
              <button
                type="button"
                class="icon-suggestion"
                aria-pressed={trimIcon(icon()) === emoji}
                aria-label={`Use ${emoji}`}
                onClick={() => setIcon(emoji)}
              >
                {emoji}
              </button>
            )}
          </For>
        </div>
      </fieldset>
      <fieldset class="look-fieldset">
        <legend>Colour</legend>
        <div class="colour-swatches">
          <label class="colour-swatch none">
            <input type="radio" name="colour" value="" checked={color() === ''} onChange={() => setColor('')} />
            <span>None</span>
          </label>
          <For each={COLOURS}>
            {(choice) => (
              <label class="colour-swatch">
                <input
                  type="radio"
                  name="colour"
                  value={choice.value}
                  checked={color().toLowerCase() === choice.value}
                  onChange={() => setColor(choice.value)}
                />
                <span class="swatch-dot" style={{ 'background-color': choice.value }} aria-hidden="true" />
                <span>{choice.name}</span>
              </label>
            )}
          </For>
        </div>
      </fieldset>
      <ErrorLine text={submit.error()} />
      <DialogButtons busy={submit.busy()} submitLabel="Save" onCancel={props.onClose} />
    </form>
  );
}

function ArchiveForm(props: { channel: ChannelRow; onSubmit: () => Promise<void>; onClose: () => void }) {
  // eslint-disable-next-line solid/reactivity -- the dialog's close callback is fixed for its life
  const submit = useSubmit(props.onClose);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void submit.run(props.onSubmit);
      }}
    >
      <p>
        It leaves the channel list on all your devices. Its messages are kept, and it stays visible under “Show
        archived”.
      </p>
      <ErrorLine text={submit.error()} />
      <DialogButtons busy={submit.busy()} submitLabel="Archive" danger onCancel={props.onClose} />
    </form>
  );
}

function titleOf(action: ChannelAction): string {
  switch (action.kind) {
    case 'new-channel':
      return 'New channel';
    case 'new-thread':
      return `New thread in ${action.channel.name}`;
    case 'rename':
      return `Rename ${action.channel.name}`;
    case 'look':
      return `Icon and colour of ${action.channel.name}`;
    case 'archive':
      return `Archive ${action.channel.name}?`;
  }
}

/** The one open channel dialog, if any. Each form is created afresh when the action changes. */
export function ChannelDialogs(props: {
  action: ChannelAction | undefined;
  commands: ChannelCommands;
  onClose: () => void;
}) {
  // Keep the last action while the dialog closes so its title does not blank first.
  const [shown, setShown] = createSignal<ChannelAction>();
  createEffect(() => {
    if (props.action) setShown(props.action);
  });
  return (
    <ModalDialog open={!!props.action} title={shown() ? titleOf(shown()!) : ''} onClose={props.onClose}>
      <Show when={props.action} keyed>
        {(action) => {
          switch (action.kind) {
            case 'new-channel':
              return (
                <NameForm
                  initial=""
                  submitLabel="Create"
                  onSubmit={(name) => props.commands.create(name)}
                  onClose={props.onClose}
                />
              );
            case 'new-thread':
              return (
                <NameForm
                  initial=""
                  submitLabel="Create"
                  onSubmit={(name) => props.commands.create(name, action.channel)}
                  onClose={props.onClose}
                />
              );
            case 'rename':
              return (
                <NameForm
                  initial={action.channel.name}
                  submitLabel="Rename"
                  onSubmit={(name) => props.commands.rename(action.channel, name)}
                  onClose={props.onClose}
                />
              );
            case 'look':
              return (
                <LookForm
                  channel={action.channel}
                  onSubmit={(icon, color) => props.commands.setLook(action.channel, icon, color)}
                  onClose={props.onClose}
                />
              );
            case 'archive':
              return (
                <ArchiveForm
                  channel={action.channel}
                  onSubmit={() => props.commands.archive(action.channel)}
                  onClose={props.onClose}
                />
              );
          }
        }}
      </Show>
    </ModalDialog>
  );
}
