import { Menu } from '../shell/Menu';
import { MediaIcon } from './MediaIcon';

/**
 * "Attach": the file picker, several files at once. On phones it first offers the camera (a photo
 * or video taken now) or files, as a menu; elsewhere it opens the picker directly.
 */
export function AttachButton(props: { onFiles: (files: File[]) => void; disabled?: boolean }) {
  const coarse = typeof matchMedia === 'function' ? matchMedia('(pointer: coarse)') : undefined;
  let files!: HTMLInputElement;
  let camera!: HTMLInputElement;

  const picked = (input: HTMLInputElement) => {
    const list = Array.from(input.files ?? []);
    input.value = ''; // the same file can be chosen again
    if (list.length > 0) props.onFiles(list);
  };

  return (
    <div class="attach">
      <Menu
        label="Attach"
        triggerClass="composer-icon-button media-button"
        triggerContent={<MediaIcon name="attach" />}
        disabled={props.disabled}
        width={250}
        opensMenu={() => !!coarse?.matches}
        onDirect={() => files.click()}
        items={[
          { label: 'Take a photo or video', icon: <MediaIcon name="camera" />, onSelect: () => camera.click() },
          { label: 'Choose files', icon: <MediaIcon name="attach" />, onSelect: () => files.click() },
        ]}
      />
      <input
        ref={files}
        type="file"
        multiple
        hidden
        aria-hidden="true"
        tabindex="-1"
        onChange={(e) => picked(e.currentTarget)}
      />
      <input
        ref={camera}
        type="file"
        accept="image/*,video/*"
        capture="environment"
        hidden
        aria-hidden="true"
        tabindex="-1"
        onChange={(e) => picked(e.currentTarget)}
      />
    </div>
  );
}
