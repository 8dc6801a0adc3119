import { For, Match, Switch } from 'solid-js';
import type { ActivityRow } from '../../../store/schema';
import { Markdown } from './Markdown';
import { ToolCard } from './ToolCard';

/** A turn's tool cards and commentary beats, in the order they happened. */
export function ActivityList(props: { items: ActivityRow[] }) {
  return (
    <div class="activity">
      <For each={props.items}>
        {(item) => (
          <Switch>
            <Match when={item.kind === 'tool'}>
              <ToolCard tool={item} />
            </Match>
            <Match when={item.kind === 'commentary'}>
              <div class="commentary">
                <Markdown text={item.text ?? ''} />
              </div>
            </Match>
          </Switch>
        )}
      </For>
    </div>
  );
}
