// Everything that counts as an attack succeeding, watched on one page: a script ran (the
// __pwned sentinel, document.title), a dialog opened, a request left the app's origin, a CSP
// violation, a popup or a frame; plus an audit of the DOM for markup that should never be there.
import type { Page } from '@playwright/test';

export interface AttackWatch {
  /** Everything seen so far, in words. */
  problems(): Promise<string[]>;
  /** Scans the DOM now for injected active markup (event attributes, script URLs, remote loads…). */
  audit(where: string): Promise<void>;
}

export async function watchForAttacks(page: Page, origin: string): Promise<AttackWatch> {
  const found: string[] = [];
  const own = new URL(origin).host;
  await page.exposeFunction('__pwned', (n: unknown) => found.push(`a script ran: __pwned(${String(n)})`));
  page.on('dialog', (d) => {
    found.push(`a ${d.type()} dialog opened: ${d.message()}`);
    void d.dismiss().catch(() => undefined);
  });
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (['http:', 'https:', 'ws:', 'wss:'].includes(url.protocol) && url.host !== own)
      found.push(`a request left the origin: ${r.url()}`);
  });
  page.on('websocket', (ws) => {
    if (new URL(ws.url()).host !== own) found.push(`a WebSocket to another host: ${ws.url()}`);
  });
  page.on('popup', (p) => found.push(`a popup opened: ${p.url()}`));
  page.on('frameattached', (f) => found.push(`a frame was attached: ${f.url()}`));
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to (load|execute|apply|frame|connect)/i.test(m.text()))
      found.push(`CSP (console): ${m.text()}`);
  });
  page.on('pageerror', (e) => {
    if (/pwned|PWNED/.test(e.message)) found.push(`a page error mentions the sentinel: ${e.message}`);
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      w.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
    );
  });

  return {
    async problems() {
      const inPage = await page
        .evaluate(() => {
          const w = window as unknown as { __csp?: string[] };
          const out = (w.__csp ?? []).map((v) => `CSP violation: ${v}`);
          if (document.title === 'PWNED') out.push('a script set document.title');
          return out;
        })
        .catch(() => [] as string[]);
      return [...found, ...inPage];
    },

    async audit(where) {
      const bad = await page.evaluate((host) => {
        const out: string[] = [];
        const urlAttrs = [
          'href',
          'src',
          'action',
          'formaction',
          'xlink:href',
          'data',
          'poster',
          'background',
          'ping',
          'srcset',
          'codebase',
          'srcdoc',
        ];
        for (const el of document.querySelectorAll('*')) {
          const tag = el.tagName.toLowerCase();
          if (['iframe', 'frame', 'object', 'embed', 'applet', 'base', 'isindex'].includes(tag))
            out.push(`<${tag}> element`);
          // The app's own CSP backstop (index.html, right after <meta charset>) is not an attack.
          const ownCsp =
            el === document.head.firstElementChild?.nextElementSibling &&
            el.getAttribute('http-equiv') === 'Content-Security-Policy';
          if (tag === 'meta' && el.getAttribute('http-equiv') && !ownCsp) out.push('<meta http-equiv>');
          if (tag === 'script' && !(el as HTMLScriptElement).src.startsWith(location.origin + '/'))
            out.push('an inline or foreign <script>');
          if (tag === 'link' && (el as HTMLLinkElement).href && new URL((el as HTMLLinkElement).href).host !== host)
            out.push(`<link> to ${(el as HTMLLinkElement).href}`);
          if (tag === 'style' && el.closest('.md, .bubble, [role=log], [role=dialog], [role=status]'))
            out.push('a <style> inside rendered content');
          for (const attr of el.getAttributeNames()) {
            const value = el.getAttribute(attr) ?? '';
            if (/^on/i.test(attr)) out.push(`<${tag} ${attr}=…>`);
            if (urlAttrs.includes(attr.toLowerCase())) {
              // What the browser would make of it (a literal "&colon;" is just a relative path).
              let url: URL | undefined;
              try {
                url = new URL(value.split(/\s/)[0] ?? '', document.baseURI);
              } catch {
                url = undefined;
              }
              const scheme = url?.protocol ?? '';
              if (
                scheme === 'javascript:' ||
                scheme === 'vbscript:' ||
                (scheme === 'data:' && /^data:(text\/html|image\/svg|application)/i.test(url!.href))
              )
                out.push(`<${tag} ${attr}="${value.slice(0, 60)}">`);
              if (attr !== 'href' && url && /^(https?|wss?):$/.test(scheme) && url.host !== host)
                out.push(`<${tag} ${attr}="${value.slice(0, 60)}"> loads from another host`);
            }
            if (attr === 'style' && /url\(|expression\(|behavior:/i.test(value))
              out.push(`<${tag} style="${value.slice(0, 60)}">`);
          }
        }
        return out;
      }, new URL(origin).host);
      for (const b of bad) found.push(`${where}: ${b}`);
    },
  };
}
