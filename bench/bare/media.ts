// The limit for a media pull: a WebSocket that says hello, asks for the file, and only counts the
// binary frames' bytes until media.pull.end.
export interface BareMediaApi {
  connect(url: string, token: string): Promise<void>;
  pull(mediaId: string): Promise<{ ms: number; bytes: number; start: number; end: number }>;
}

let ws: WebSocket | undefined;

const api: BareMediaApi = {
  connect(url, token) {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url);
      socket.binaryType = 'arraybuffer';
      socket.onerror = () => reject(new Error('bare media page: the socket failed'));
      socket.onopen = () => {
        const payload = {
          token,
          device_id: crypto.randomUUID(),
          device_name: 'bare',
          caps: { min_protocol: 1, media: true, push: 'none' },
        };
        socket.send(JSON.stringify({ v: 1, id: 1, type: 'hello', payload }));
      };
      socket.onmessage = (event) => {
        if (typeof event.data === 'string' && event.data.startsWith('{"v":1,"type":"hello.ack"')) {
          ws = socket;
          resolve();
        }
      };
    });
  },
  pull(mediaId) {
    const socket = ws;
    if (!socket) return Promise.reject(new Error('bare media page: not connected'));
    return new Promise((resolve, reject) => {
      let bytes = 0;
      const start = performance.now();
      socket.onmessage = (event) => {
        if (event.data instanceof ArrayBuffer) bytes += event.data.byteLength;
        else if (typeof event.data === 'string' && event.data.includes('"id":2')) {
          const end = performance.now();
          if (!event.data.startsWith('{"v":1,"type":"media.pull.end"'))
            reject(new Error(`bare media page: ${event.data.slice(0, 200)}`));
          else resolve({ ms: end - start, bytes, start, end });
        }
      };
      socket.send(JSON.stringify({ v: 1, id: 2, type: 'media.pull', payload: { media_id: mediaId } }));
    });
  },
};
(window as unknown as { bench: BareMediaApi }).bench = api;
