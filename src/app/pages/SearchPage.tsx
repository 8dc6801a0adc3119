// Placeholder until the search engineer's SearchPage lands (keeps the typecheck green).
export default function SearchPage() {
  return (
    <main>
      <h2 class="visually-hidden">Search</h2>
    </main>
  );
}
