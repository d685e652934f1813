import { buildIntentEngine } from '../shared/chatbot/intents/index.ts';
import { clinicBrain, clinicIntents } from './support/intent-faq.ts';
const e = buildIntentEngine(clinicIntents());
for (const q of ['When is the clinic open?']) console.log(q, JSON.stringify(e.decide(q, clinicBrain())).slice(0, 400));
