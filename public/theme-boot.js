// Runs before the first paint (a blocking external script: the CSP allows no inline script), so a
// forced light or dark theme never flashes the system one. src/runtime/theme.ts keeps this copy current.
try {
  var choice = localStorage.getItem('iris.theme');
  if (choice === 'light' || choice === 'dark') document.documentElement.setAttribute('data-theme', choice);
} catch (e) {
  /* storage blocked: follow the system */
}
