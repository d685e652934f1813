import { intentSet, runSet } from './support/intent-set.ts';
const out = runSet(intentSet());
for (const split of ['tune','heldout']) for (const lang of ['en','ml','manglish']) {
  const o = out.filter(x => x.item.split===split && x.item.lang===lang);
  const faq = o.filter(x=>x.item.intent!==null);
  const mm = o.filter(x=>x.item.intent===null);
  console.log(split, lang, `faq answered ${faq.filter(x=>x.answered).length}/${faq.length}`, `wrong ${o.filter(x=>x.wrong).length}`, `mustmodel answered ${mm.filter(x=>x.answered).length}/${mm.length}`);
}
for (const x of out) if (x.wrong) console.log('WRONG', x.item.template, x.item.q, '→', (x.decision as any).intentId, x.decision.candidates.map(c=>c.id+':'+c.score).join(' '));
if (process.argv[2]) for (const x of out) if (!x.answered && x.item.intent) console.log('defer', x.item.lang, x.item.q, x.item.intent, x.decision.kind==='model'?x.decision.reason:'', x.decision.candidates.map(c=>c.id+':'+c.score).join(' '));
