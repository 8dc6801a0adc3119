// The limit for a long lane: every message of the lane (#lane=…) read with the raw IndexedDB API and
// put in the page at once as plain text (no virtualization, no Markdown), opened at the newest.
const lane = new URLSearchParams(location.hash.slice(1)).get('lane') ?? 'web:default';
const opening = indexedDB.open('iris');
opening.onsuccess = () => {
  const index = opening.result.transaction('messages', 'readonly').objectStore('messages').index('[lane+ts]');
  const read = index.getAll(IDBKeyRange.bound([lane, -Infinity], [lane, Infinity]));
  read.onsuccess = () => {
    const list = document.getElementById('list')!;
    const fragment = document.createDocumentFragment();
    for (const row of read.result as { text: string }[]) {
      const p = document.createElement('p');
      p.textContent = row.text;
      fragment.append(p);
    }
    list.append(fragment);
    list.scrollTop = list.scrollHeight;
  };
};

export {};
