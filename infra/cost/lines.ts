/*
 * A cost estimate as lines (what, how it was figured, how much) and their markdown table, the form
 * docs/deploy.md prints.
 */

export interface CostLine {
  item: string;
  /** How the figure was made: counts from the template times prices. */
  basis: string;
  usd: number;
}

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export const total = (lines: CostLine[]) => lines.reduce((n, l) => n + l.usd, 0);

/** A markdown table of lines with their total. */
export function table(title: string, lines: CostLine[], digits = 2): string {
  const fmt = (n: number) => `$${n.toFixed(digits)}`;
  return [
    `| ${title} | How | USD |`,
    '| --- | --- | ---: |',
    ...lines.map((l) => `| ${l.item} | ${l.basis} | ${fmt(l.usd)} |`),
    `| **Total** | | **${fmt(total(lines))}** |`,
  ].join('\n');
}
