// The limit for a reply that is a whole file: a WebSocket that says hello, then only receives; the
// reply's final text is put on the page as it is, in one <pre>, when message.stop arrives.
export interface BareAnswerApi {
  connect(url: string, token: string): Promise<void>;
}

const api: BareAnswerApi = {
  connect(url, token) {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.onerror = () => reject(new Error('bare answer page: the socket failed'));
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
        if (event.data.startsWith('{"v":1,"type":"hello.ack"')) resolve();
        else if (event.data.startsWith('{"v":1,"type":"message.stop"')) {
          document.getElementById('answer')!.textContent = (
            JSON.parse(event.data) as { payload: { final_text: string } }
          ).payload.final_text;
        }
      };
    });
  },
};
(window as unknown as { bench: BareAnswerApi }).bench = api;
