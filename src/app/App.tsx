export function App() {
  return <main>Iris</main>;
}
