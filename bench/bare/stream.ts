// The limit for streaming: a WebSocket that says hello, then only receives and counts frames; the
// reply's final text is painted as one line when message.stop arrives.
export interface BareStreamApi {
  connect(url: string, token: string): Promise<void>;
  counted(): number;
}

let frames = 0;
const api: BareStreamApi = {
  connect(url, token) {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.onerror = () => reject(new Error('bare stream page: the socket failed'));
      ws.onopen = () => {
        const payload = {
          token,
          device_id: crypto.randomUUID(),
          device_name: 'bare',
          caps: { min_protocol: 1, media: false, push: 'none' },
        };
        ws.send(JSON.stringify({ v: 1, id: 1, type: 'hello', payload }));
      };
      ws.onmessage = (event: MessageEvent<string>) => {
        frames++;
        if (event.data.startsWith('{"v":1,"type":"hello.ack"')) resolve();
        else if (event.data.startsWith('{"v":1,"type":"message.stop"')) {
          document.getElementById('line')!.textContent = (
            JSON.parse(event.data) as { payload: { final_text: string } }
          ).payload.final_text;
        }
      };
    });
  },
  counted: () => frames,
};
(window as unknown as { bench: BareStreamApi }).bench = api;
