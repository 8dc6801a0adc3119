import { createMemo } from 'solid-js';
import { formatBytes } from '../../../lib/format';
import { MediaIcon } from '../media/MediaIcon';
import { longTextSummary, previewLine } from './longText';
import './PastedText.css';

/** A long text kept out of the textbox: what it is (lines, size, first line), Edit and Remove. */
export function PastedText(props: { text: string; onEdit: () => void; onRemove: () => void }) {
  const summary = createMemo(() => longTextSummary(props.text, formatBytes));
  const preview = createMemo(() => previewLine(props.text));
  return (
    <div class="composer-pasted" role="group" aria-label={`Pasted text, ${summary()}`}>
      <span class="pasted-icon">
        <MediaIcon name="file" />
      </span>
      <span class="pasted-text">
        <span class="pasted-title">
          Pasted text <span class="pasted-meta">{summary()}</span>
        </span>
        <span class="pasted-preview">{preview()}</span>
      </span>
      <button type="button" class="pasted-edit" onClick={() => props.onEdit()}>
        Edit
      </button>
      <button type="button" class="chip-remove" aria-label="Remove pasted text" onClick={() => props.onRemove()}>
        <MediaIcon name="close" size={18} />
      </button>
    </div>
  );
}
