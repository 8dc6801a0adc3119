// The other limit for sync catch-up: only receiving the replay. A WebSocket says hello as a device
// whose outbox holds the same frames as the app's, asking as the app does for the replay in batches
// (`caps.batches`), sends `sync` from cursor 0 and waits for sync.done, doing nothing with the frames (no
// parse, no store). The gateway writes the whole replay at once, so this is what the socket, the
// browser's network stack and the page's event loop take to hand it over.
export interface BareReceiptApi {
  /** Returns the time (ms) from sending `sync` to the arrival of sync.done, and the frames before it. */
  receive(url: string, token: string, deviceId: string): Promise<{ ms: number; frames: number }>;
}

const BATCH_HEAD = '{"v":1,"type":"frames"';
const FRAME_HEAD = '{"v":1,"type":"';

const api: BareReceiptApi = {
  receive(url, token, deviceId) {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      let sent = 0;
      let frames = 0;
      ws.onerror = () => reject(new Error('bare receipt page: the socket failed'));
      ws.onopen = () => {
        const payload = {
          token,
          device_id: deviceId,
          device_name: deviceId,
          caps: { min_protocol: 1, media: false, push: 'none', batches: true },
        };
        ws.send(JSON.stringify({ v: 1, id: 1, type: 'hello', payload }));
      };
      ws.onmessage = (event: MessageEvent<string>) => {
        const text = event.data;
        if (sent === 0) {
          if (!text.startsWith('{"v":1,"type":"hello.ack"')) return;
          sent = performance.now();
          ws.send(JSON.stringify({ v: 1, id: 2, type: 'sync', payload: { cursor: 0 } }));
          return;
        }
        if (text.startsWith('{"v":1,"type":"sync.done"')) {
          const ms = performance.now() - sent;
          ws.close();
          resolve({ ms, frames });
        } else if (text.startsWith(BATCH_HEAD)) {
          // Counted by their heads, not parsed: this page does nothing with the frames.
          for (let at = text.indexOf(FRAME_HEAD, 1); at >= 0; at = text.indexOf(FRAME_HEAD, at + 1)) frames++;
        } else frames++;
      };
    });
  },
};
(window as unknown as { bench: BareReceiptApi }).bench = api;
