// Figures, their medians over runs, and the two outputs: a Markdown table and results.json.
// A figure that could not be measured carries the reason instead of a number; nothing is invented.

/** Something the harness waited for did not happen (in time): the figure is "n/a (reason)", the run goes on. */
export class NotMeasured extends Error {
  override name = 'NotMeasured';
}

type Unit = 'ms' | 'µs' | 'count' | 'frames/s' | 'MiB/s' | 'MiB' | 'KiB' | 'B' | 'score' | 'CLS';

/** One run's measurements: a number, or why it is missing. */
export type Sample = Record<string, number | { missing: string }>;

export interface FigureDef {
  key: string;
  figure: string;
  unit: Unit;
  /** Key of the bare page's counterpart in the same sample; the ratio is value / bare per run. */
  bare?: string;
  /** A fixed reference instead of a bare page (e.g. the 100 KiB budget): ratio = value / reference. */
  reference?: { value: number; label: string };
}

export interface Figure {
  scenario: string;
  figure: string;
  unit: Unit;
  /** Median over the runs that measured it; null = not measured (see reason). */
  value: number | null;
  reason?: string;
  bare?: number | null;
  /** Median of the per-run ratios app / bare (or value / reference). */
  ratio?: number | null;
  ratioTo?: string;
  runs: (number | null)[];
  bareRuns?: (number | null)[];
}

function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Nearest-rank percentile (p in 0..100). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

/** Key of a sample whose whole run could not be measured (every figure of that run is missing). */
export const WHOLE_RUN = '*';

function numberOf(sample: Sample, key: string): number | null {
  const v = sample[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

function reasonOf(samples: readonly Sample[], key: string): string {
  for (const s of samples) {
    const v = s[key] ?? s[WHOLE_RUN];
    if (v !== undefined && typeof v !== 'number') return v.missing;
    if (typeof v === 'number' && !Number.isFinite(v)) return 'not a finite number';
  }
  return 'no run measured it';
}

/** Medians (and per-run ratios) of each defined figure over the runs. */
export function summarize(scenario: string, defs: readonly FigureDef[], samples: readonly Sample[]): Figure[] {
  return defs.map((def) => {
    const runs = samples.map((s) => numberOf(s, def.key));
    const measured = runs.filter((v): v is number => v !== null);
    const figure: Figure = {
      scenario,
      figure: def.figure,
      unit: def.unit,
      value: measured.length ? median(measured) : null,
      runs,
    };
    if (figure.value === null) figure.reason = reasonOf(samples, def.key);
    if (def.bare !== undefined) {
      const bareKey = def.bare;
      const bareRuns = samples.map((s) => numberOf(s, bareKey));
      const bareMeasured = bareRuns.filter((v): v is number => v !== null);
      const ratios = runs.flatMap((v, i) =>
        v !== null && bareRuns[i] != null && bareRuns[i] !== 0 ? [v / bareRuns[i]!] : [],
      );
      figure.bareRuns = bareRuns;
      figure.bare = bareMeasured.length ? median(bareMeasured) : null;
      figure.ratio = ratios.length ? median(ratios) : null;
      figure.ratioTo = 'bare page';
      if (figure.bare === null) figure.reason ??= `bare: ${reasonOf(samples, bareKey)}`;
    } else if (def.reference) {
      figure.ratio = figure.value === null ? null : figure.value / def.reference.value;
      figure.ratioTo = def.reference.label;
    }
    return figure;
  });
}

/** A sample value from a promise: NotMeasured becomes { missing }, anything else is thrown. */
export function missing(reason: string): { missing: string } {
  return { missing: reason };
}

function formatNumber(value: number, unit: Unit): string {
  const digits = (v: number) =>
    v === 0 ? '0' : Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2);
  switch (unit) {
    case 'count':
      return Math.round(value).toLocaleString('en-US');
    case 'B':
      return `${Math.round(value).toLocaleString('en-US')} B`;
    case 'score': // Lighthouse's 0–100
      return Math.round(value).toString();
    case 'CLS': // Lighthouse's layout shift score, unitless
      return value.toFixed(3);
    default:
      return `${digits(value)} ${unit}`;
  }
}

function formatValue(f: Figure): string {
  if (f.value === null) return `n/a (${f.reason ?? 'not measured'})`;
  return formatNumber(f.value, f.unit);
}

function formatRatio(f: Figure): string {
  if (f.ratioTo === undefined) return '—';
  // A ratio to nothing says nothing (long tasks of a page that had none).
  if (f.bare === 0) return `— (bare ${formatNumber(0, f.unit)})`;
  if (f.ratio === null || f.ratio === undefined) {
    if (f.bare !== undefined && f.bare !== null) return `n/a (bare ${formatNumber(f.bare, f.unit)})`;
    return 'n/a';
  }
  const ratio = f.ratio >= 10 ? f.ratio.toFixed(1) : f.ratio.toFixed(2);
  if (f.ratioTo === 'bare page')
    return `${ratio}× (bare ${f.bare === null || f.bare === undefined ? 'n/a' : formatNumber(f.bare, f.unit)})`;
  return `${ratio}× of ${f.ratioTo}`;
}

export function markdownTable(figures: readonly Figure[]): string {
  const escape = (s: string) => s.replace(/\|/g, '\\|');
  const lines = ['| Scenario | Figure | Value | Ratio to bare |', '| --- | --- | --- | --- |'];
  for (const f of figures)
    lines.push(
      `| ${escape(f.scenario)} | ${escape(f.figure)} | ${escape(formatValue(f))} | ${escape(formatRatio(f))} |`,
    );
  return lines.join('\n');
}
