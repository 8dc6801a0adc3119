// What a picker dialog is called and the values it answers with (spec README §11), apart from the DOM.
import type { ApprovalValue, PickerModelFrame } from '../../../protocol';
import type { PickerRow } from '../../../store/schema';
import { DEFAULT_AGENT_NAME } from '../status/agentInfo';

/** The dialog's title, which is also its accessible name. `agent`: the agent's name (useAgentName). */
export function pickerTitle(picker: PickerRow, agent = DEFAULT_AGENT_NAME): string {
  const p = picker.payload as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  switch (picker.type) {
    case 'picker.model':
      return 'Choose a model';
    case 'picker.choice':
      return text(p.title) || 'Choose an option';
    case 'picker.clarify':
      return text(p.question) || `${agent} has a question`;
    case 'picker.approval':
      return 'Approve this command?';
    case 'picker.confirm':
      return text(p.title) || 'Are you sure?';
    default:
      return `${agent} has a question`;
  }
}

/** `picker.model` answers "<provider id>:<model id>". */
export function modelValue(providerId: string, modelId: string): string {
  return `${providerId}:${modelId}`;
}

export function isCurrentModel(payload: PickerModelFrame['payload'], providerId: string, modelId: string): boolean {
  if (payload.current_model === undefined) return false;
  if (payload.current_model === modelValue(providerId, modelId)) return true;
  return (
    payload.current_model === modelId &&
    (payload.current_provider === undefined || payload.current_provider === providerId)
  );
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

const ANSWER_WORDS: Readonly<Record<string, string>> = {
  once: 'Approved once',
  session: 'Approved for this session',
  always: 'Always approved',
  deny: 'Denied',
};

function oneLine(text: string, max = 120): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * A question the agent asked and what became of it, in one line for the conversation:
 * "Approval: make deploy --prod → Approved once". A picker closed without an answer from here was
 * answered elsewhere or withdrawn.
 */
export function pickerOutcome(picker: PickerRow, agent = DEFAULT_AGENT_NAME): { question: string; answer: string } {
  const p = picker.payload as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  const value = picker.state === 'answered' ? (picker.answer ?? '') : undefined;
  const choiceLabel = (v: string) => {
    const list = Array.isArray(p.choices) ? (p.choices as { value?: unknown; label?: unknown }[]) : [];
    const found = list.find((c) => c.value === v);
    return found && typeof found.label === 'string' ? found.label : v;
  };
  let question: string;
  let answer: string | undefined;
  switch (picker.type) {
    case 'picker.approval':
      question = `Approval: ${text(p.command) || 'a command'}`;
      answer = value !== undefined ? (ANSWER_WORDS[value] ?? value) : undefined;
      break;
    case 'picker.confirm':
      question = pickerTitle(picker, agent);
      answer = value === 'yes' ? 'Yes' : value === 'no' ? 'No' : value;
      break;
    case 'picker.model': {
      question = 'Model';
      const providers = Array.isArray(p.providers)
        ? (p.providers as { id?: unknown; models?: { id?: unknown; label?: unknown }[] }[])
        : [];
      const model = providers
        .flatMap((pr) =>
          Array.isArray(pr.models)
            ? pr.models.map((m) => ({ key: `${String(pr.id)}:${String(m.id)}`, label: m.label }))
            : [],
        )
        .find((m) => m.key === value);
      answer = value !== undefined ? (typeof model?.label === 'string' ? model.label : value) : undefined;
      break;
    }
    default:
      question = pickerTitle(picker, agent);
      answer = value !== undefined ? choiceLabel(value) : undefined;
  }
  return { question: oneLine(question), answer: oneLine(answer ?? 'Closed') };
}
