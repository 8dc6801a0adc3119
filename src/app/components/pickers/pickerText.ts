// What a picker dialog is called and the values it answers with (spec README §11), apart from the DOM.
import type { ApprovalValue, PickerModelFrame } from '../../../protocol';
import type { PickerRow } from '../../../store/schema';

/** The dialog's title, which is also its accessible name. */
export function pickerTitle(picker: PickerRow): string {
  const p = picker.payload as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  switch (picker.type) {
    case 'picker.model':
      return 'Choose a model';
    case 'picker.choice':
      return text(p.title) || 'Choose an option';
    case 'picker.clarify':
      return text(p.question) || 'Hermes has a question';
    case 'picker.approval':
      return 'Approve this command?';
    case 'picker.confirm':
      return text(p.title) || 'Are you sure?';
    default:
      return 'Hermes has a question';
  }
}

/** `picker.model` answers "<provider id>:<model id>". */
export function modelValue(providerId: string, modelId: string): string {
  return `${providerId}:${modelId}`;
}

export function isCurrentModel(payload: PickerModelFrame['payload'], providerId: string, modelId: string): boolean {
  if (payload.current_model === undefined) return false;
  if (payload.current_model === modelValue(providerId, modelId)) return true;
  return payload.current_model === modelId && (payload.current_provider === undefined || payload.current_provider === providerId);
}

export const APPROVAL_ANSWERS: readonly { value: ApprovalValue; label: string }[] = [
  { value: 'once', label: 'Once' },
  { value: 'session', label: 'This session' },
  { value: 'always', label: 'Always' },
  { value: 'deny', label: 'Deny' },
];

/** A typed clarify answer: trimmed, and not empty. */
export function typedAnswer(text: string): string | undefined {
  const trimmed = text.trim();
  return trimmed === '' ? undefined : trimmed;
}
