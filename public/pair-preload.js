// Runs as soon as it arrives (an async external script, the CSP allowing no inline one; it does not hold
// up the parser, and so the entry, which runs once the page is parsed). A new visitor's
// first screen is the pairing page: its files, listed by the build on this tag, download alongside the
// entry instead of one round trip after it has run. A device that has paired (src/runtime/pairedHint.ts
// keeps the mark) opens a lane instead, and does not download them.
try {
  var tag = document.currentScript;
  if (tag && localStorage.getItem('iris.paired') !== '1') {
    var add = function (list, rel, as) {
      (list || '').split(' ').forEach(function (href) {
        if (!href) return;
        var link = document.createElement('link');
        link.rel = rel;
        if (as) link.as = as;
        link.crossOrigin = '';
        link.href = href;
        document.head.appendChild(link);
      });
    };
    add(tag.getAttribute('data-modules'), 'modulepreload');
    // A preload, not a stylesheet: it must not hold up the paint of other routes.
    add(tag.getAttribute('data-styles'), 'preload', 'style');
  }
} catch (e) {
  /* storage blocked: the pairing page loads when shown */
}
