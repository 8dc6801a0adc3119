// The limit for a cold start: read every message of the lane (#lane=…) from the app's database with
// the raw IndexedDB API, and paint the newest one's text as one line. Nothing else.
const lane = new URLSearchParams(location.hash.slice(1)).get('lane') ?? 'web:default';
const opening = indexedDB.open('iris');
opening.onsuccess = () => {
  const db = opening.result;
  const index = db.transaction('messages', 'readonly').objectStore('messages').index('[lane+ts]');
  const read = index.getAll(IDBKeyRange.bound([lane, -Infinity], [lane, Infinity]));
  read.onsuccess = () => {
    const rows = read.result as { text: string }[];
    document.getElementById('line')!.textContent = rows[rows.length - 1]?.text ?? '(no messages)';
  };
};

export {};
