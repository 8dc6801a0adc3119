// The layout audit's checks, run on whatever screen a page shows. Each returns what a person would
// notice as a list of short findings (empty when the screen is fine), so a failure reads as a list.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/** The smallest hit area for a control, in CSS pixels (WCAG 2.5.5, Android's 48 dp rounded to iOS's 44 pt). */
const MIN_TARGET = 44;

/** The page scrolls sideways, or something sticks out of the screen without a sideways scroller to hold it. */
export function horizontalOverflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > innerWidth) found.push(`the page is ${root.scrollWidth}px wide in a ${innerWidth}px window`);
    const scrollsSideways = (el: Element | null): boolean => {
      for (let e = el; e && e !== document.body; e = e.parentElement) {
        const x = getComputedStyle(e).overflowX;
        if (x === 'auto' || x === 'scroll') return true;
      }
      return false;
    };
    for (const el of document.body.querySelectorAll('*')) {
      const box = el.getBoundingClientRect();
      if (
        box.width === 0 ||
        box.height === 0 ||
        !el.checkVisibility({ visibilityProperty: true, opacityProperty: true })
      )
        continue;
      if (el.closest('.visually-hidden')) continue;
      if (box.right > innerWidth + 1 || box.left < -1) {
        if (scrollsSideways(el.parentElement)) continue;
        found.push(`${describe(el)} spans ${Math.round(box.left)}…${Math.round(box.right)}px of ${innerWidth}px`);
      }
    }
    return found.slice(0, 20);

    function describe(el: Element): string {
      const cls =
        typeof el.className === 'string' && el.className ? '.' + el.className.trim().split(/\s+/).join('.') : '';
      const text = (el.textContent ?? '').trim().slice(0, 30);
      return `<${el.tagName.toLowerCase()}${cls}>${text ? ` "${text}"` : ''}`;
    }
  });
}

/**
 * Every visible control a finger can hit is at least 44×44 px, counting its label (a checkbox's label
 * is part of its hit area). Links inside running text are exempt, as WCAG exempts inline targets.
 */
export function smallTargets(page: Page, min = MIN_TARGET): Promise<string[]> {
  return page.evaluate((min) => {
    const CONTROLS =
      'button, a[href], input:not([type=hidden]), select, textarea, summary, [role=button], [role=link], [role=menuitem], ' +
      '[role=option], [role=switch], [role=tab], [role=checkbox], [role=radio], [tabindex]:not([tabindex="-1"])';
    const found: string[] = [];
    const topDialog = [...document.querySelectorAll('dialog[open]')].pop();
    for (const el of document.querySelectorAll<HTMLElement>(CONTROLS)) {
      if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: false })) continue;
      if (el.closest('.visually-hidden') || el.closest('[inert]')) continue;
      // Behind an open modal dialog nothing can be hit.
      if (topDialog && !topDialog.contains(el)) continue;
      if (el.tagName === 'A' && el.closest('p, li, td, th, blockquote') && !el.matches('[role=button]')) continue;
      if (el.matches('[role=log], [role=region], [role=listbox], [role=dialog], dialog, pre, main, [role=list]'))
        continue;
      let { left, top, right, bottom } = el.getBoundingClientRect();
      const labels = (el as HTMLInputElement).labels ?? [];
      for (const label of labels) {
        const b = label.getBoundingClientRect();
        left = Math.min(left, b.left);
        top = Math.min(top, b.top);
        right = Math.max(right, b.right);
        bottom = Math.max(bottom, b.bottom);
      }
      const w = right - left;
      const h = bottom - top;
      if (w === 0 && h === 0) continue;
      if (w + 0.5 < min || h + 0.5 < min) found.push(`${name(el)} is ${Math.round(w)}×${Math.round(h)}px`);
    }
    return found;

    function name(el: HTMLElement): string {
      const label =
        el.getAttribute('aria-label') ?? (el as HTMLInputElement).labels?.[0]?.textContent ?? el.textContent ?? '';
      const role = el.getAttribute('role') ?? el.tagName.toLowerCase();
      const cls = el.classList[0] ? `.${el.classList[0]}` : '';
      return `${role}${cls} "${label.trim().replace(/\s+/g, ' ').slice(0, 40)}"`;
    }
  }, min);
}

/**
 * Text cut off by its own box: an element whose text overflows it while the overflow is hidden
 * (not ended by an ellipsis, which says "there is more"), or a one-line control whose words stick out.
 */
export function clippedText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    for (const el of document.body.querySelectorAll<HTMLElement>('*')) {
      if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
      if (el.closest('.visually-hidden, svg, pre, code, textarea, [contenteditable]')) continue;
      const ownText = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim() !== '');
      if (!ownText) continue;
      const style = getComputedStyle(el);
      if (style.display === 'inline' || style.display === 'contents') continue;
      if (style.textOverflow === 'ellipsis' || style.webkitLineClamp !== 'none') continue;
      const scrolls = (v: string) => v === 'auto' || v === 'scroll';
      const wide = el.scrollWidth > el.clientWidth + 1 && !scrolls(style.overflowX);
      const tall = el.scrollHeight > el.clientHeight + 1 && !scrolls(style.overflowY) && style.overflowY !== 'visible';
      if (wide || tall) {
        const text = (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
        found.push(
          `<${el.tagName.toLowerCase()}.${el.classList[0] ?? ''}> "${text}" needs ${el.scrollWidth}×${el.scrollHeight}px, has ${el.clientWidth}×${el.clientHeight}px`,
        );
      }
    }
    return found.slice(0, 20);
  });
}

/** axe-core's serious and critical findings on the whole page. */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 5)
          .join(', ')}`,
    );
}
