import { intentSet, runSet } from './support/intent-set.ts';
const out = runSet(intentSet());
for (const split of ['tune','heldout']) for (const lang of ['en','ml','manglish']) {
  const o = out.filter(x => x.item.split===split && x.item.lang===lang);
  const faq = o.filter(x=>x.item.intent!==null);
  console.log(split, lang, `faq answered ${faq.filter(x=>x.answered).length}/${faq.length}`, `wrong ${o.filter(x=>x.wrong).length}`);
}
for (const x of out) if (x.wrong) console.log('WRONG', x.item.q);
