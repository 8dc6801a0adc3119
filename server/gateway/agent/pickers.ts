// The five pickers (spec README §11): posted by demo commands, answered once with picker.select.
// Approval and clarify also raise a notification of that kind (pushed even to live devices).
import { randomUUID } from 'node:crypto';
import type { Choice, ModelProvider, NotificationKind, PickerFrame } from '../../../src/protocol';
import type { AgentHost } from '../agent';
import type { LaneAddress } from '../directory';
import { at } from '../frames';
import { DEMO_AGENT_NAME, quote } from './script';
import type { PendingPicker } from './state';

const PROVIDERS: ModelProvider[] = [
  {
    id: 'demo',
    label: 'Demo',
    models: [
      { id: 'iris-demo-1', label: 'Iris Demo 1' },
      { id: 'iris-demo-2', label: 'Iris Demo 2 (fast)' },
    ],
  },
  { id: 'local', label: 'Local', models: [{ id: 'echo-small', label: 'Echo Small' }] },
];

const EFFORTS: Choice[] = [
  { value: 'low', label: 'Low' },
  { value: 'medium', label: 'Medium', is_current: true },
  { value: 'high', label: 'High' },
];

const FORMATS: Choice[] = [
  { value: 'bullets', label: 'Bullet points' },
  { value: 'prose', label: 'Prose' },
  { value: 'table', label: 'A table' },
];

export type PickerCommand = 'model' | 'choose' | 'clarify' | 'approve' | 'confirm';
const MAX_ANSWER = 2000;

/** Post a picker in a lane: agent.busy{waiting_input}, the picker frame, and a notification for approval/clarify. */
export function postPicker(ctx: AgentHost, addr: LaneAddress, command: PickerCommand, args: string): string {
  const { store, hub } = ctx;
  const picker_id = `pick_${randomUUID()}`;
  const scope = at(addr);
  let frame: PickerFrame;
  let notify: { kind: NotificationKind; title: string; body: string } | undefined;
  const detail: Record<string, unknown> = {};
  switch (command) {
    case 'model':
      frame = {
        v: 1,
        type: 'picker.model',
        ...scope,
        payload: {
          picker_id,
          current_provider: store.agent.provider,
          current_model: store.agent.model,
          providers: PROVIDERS,
        },
      };
      break;
    case 'choose':
      frame = {
        v: 1,
        type: 'picker.choice',
        ...scope,
        payload: { picker_id, title: 'Reasoning effort', choices: EFFORTS },
      };
      break;
    case 'clarify': {
      const question = 'Which format should the summary use?';
      frame = { v: 1, type: 'picker.clarify', ...scope, payload: { picker_id, question, choices: FORMATS } };
      notify = { kind: 'clarify', title: `${DEMO_AGENT_NAME} has a question`, body: question };
      break;
    }
    case 'approve': {
      const command = args.trim().slice(0, 500) || 'rm -rf build';
      detail.command = command;
      frame = {
        v: 1,
        type: 'picker.approval',
        ...scope,
        payload: { picker_id, command, description: 'The demo agent wants to run this shell command.' },
      };
      notify = { kind: 'approval', title: 'Approval needed', body: `Run ${command}?` };
      break;
    }
    case 'confirm': {
      const title = 'Archive old messages?';
      detail.title = title;
      frame = {
        v: 1,
        type: 'picker.confirm',
        ...scope,
        payload: {
          picker_id,
          title,
          message: 'The demo agent would archive messages older than 30 days. Nothing is really archived.',
        },
      };
      break;
    }
  }
  store.agent.pickers.set(picker_id, {
    picker_id,
    type: frame.type,
    lane: addr.lane,
    detail,
    created: Date.now(),
    frame,
  });
  store.agent.save('self');
  hub.emit({ v: 1, type: 'agent.busy', ...scope, payload: { reason: 'waiting_input' } });
  hub.emit(frame);
  if (notify) {
    const ts = store.conversations.now();
    hub.emit({ v: 1, type: 'notification', ...scope, payload: { ...notify, ts } });
    ctx.push.notify({
      ...notify,
      lane: addr.lane,
      chat_id: addr.chat_id,
      ...(addr.thread_id ? { thread_id: addr.thread_id } : {}),
      picker_id,
      ts,
    });
  }
  return picker_id;
}

/** The agent's sentence for an answer, or an error message when the value is not one the picker offers. */
export function answerText(
  ctx: AgentHost,
  picker: PendingPicker,
  rawValue: unknown,
): { text: string } | { error: string } {
  const value = typeof rawValue === 'string' ? rawValue.trim() : '';
  switch (picker.type) {
    case 'picker.model': {
      const [providerId, ...rest] = value.split(':');
      const modelId = rest.join(':');
      const provider = PROVIDERS.find((p) => p.id === providerId);
      const model = provider?.models.find((m) => m.id === modelId);
      if (!provider || !model) return { error: 'value must be "<provider id>:<model id>" of an offered model.' };
      ctx.store.agent.provider = provider.id;
      ctx.store.agent.model = model.id;
      return { text: `Model set to **${model.label}** (\`${value}\`).` };
    }
    case 'picker.choice': {
      const choice = EFFORTS.find((c) => c.value === value);
      if (!choice) return { error: 'value must be one of the offered choices.' };
      return { text: `Reasoning effort set to **${choice.label}**.` };
    }
    case 'picker.clarify':
      if (value === '' || value.length > MAX_ANSWER)
        return { error: `the answer must be 1 to ${MAX_ANSWER} characters.` };
      return { text: `Thanks — you answered: **${quote(value, 200)}**.` };
    case 'picker.approval': {
      const command = '`' + ((picker.detail.command as string | undefined) ?? '') + '`';
      const texts: Record<string, string> = {
        once: `Approved once: ${command}`,
        session: `Approved for this session: ${command}`,
        always: `Always approved: ${command}`,
        deny: `Denied: ${command}`,
      };
      return texts[value] ? { text: texts[value] } : { error: 'value must be once, session, always or deny.' };
    }
    case 'picker.confirm': {
      const title = (picker.detail.title as string | undefined) ?? '';
      if (value === 'yes') return { text: `Confirmed: ${title}` };
      if (value === 'no') return { text: `Cancelled: ${title}` };
      return { error: 'value must be yes or no.' };
    }
  }
}
