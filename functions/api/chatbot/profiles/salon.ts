import type { ProfileTemplate } from './template.ts';

/** A unisex salon: stylists with weekly slots, a price list, booking and cancellation rules. */
export const salon: ProfileTemplate = {
  brain: {
    business: {
      name: 'Lavender Unisex Salon',
      tagline: 'Hair, skin and bridal studio',
      profile: 'salon',
      industry: 'beauty salon',
      currency: 'INR',
      languages: ['English', 'Malayalam'],
    },
    location: {
      address: 'TC 25/1120, Vazhuthacaud Junction',
      city: 'Thiruvananthapuram',
      state: 'Kerala',
      country: 'India',
      postalCode: '695014',
      mapUrl: 'https://maps.example.com/?q=Lavender+Salon+Vazhuthacaud',
      landmarks: ['Opposite Cotton Hill school gate', 'Parking behind the building'],
    },
    contact: {
      phones: ['+91 471 2330 777'],
      whatsapp: '+91 97450 33077',
      email: 'hello@lavendersalon.example',
      hours: {
        monday: { closed: true },
        tuesday: { open: '10:00', close: '20:00' },
        wednesday: { open: '10:00', close: '20:00' },
        thursday: { open: '10:00', close: '20:00' },
        friday: { open: '10:00', close: '20:00' },
        saturday: { open: '09:00', close: '21:00' },
        sunday: { open: '09:00', close: '21:00' },
      },
    },
    doctors: [
      {
        name: 'Divya S (senior stylist)',
        specialty: 'Hair colour and bridal styling',
        languages: ['Malayalam', 'English'],
        availability: {
          tuesday: ['10:00-14:00'],
          thursday: ['14:00-20:00'],
          saturday: ['09:00-15:00'],
          sunday: ['09:00-15:00'],
        },
      },
      {
        name: 'Arjun K (stylist)',
        specialty: "Men's cuts, beard and keratin",
        languages: ['Malayalam', 'English', 'Tamil'],
        availability: {
          wednesday: ['12:00-20:00'],
          friday: ['12:00-20:00'],
          saturday: ['13:00-21:00'],
          sunday: ['13:00-21:00'],
        },
      },
    ],
    services: [
      { name: "Men's haircut", price: 250, duration: 30 },
      { name: "Women's haircut", price: 450, duration: 45 },
      {
        name: 'Global hair colour',
        description: 'Ammonia-free colour, price by length.',
        price: 'from 2500',
        duration: 120,
      },
      { name: 'Keratin treatment', price: 'from 4500', duration: 180 },
      { name: 'Facial (fruit / gold)', price: 900, duration: 60 },
      {
        name: 'Bridal package',
        description: 'Trial, make-up, hairdo and draping on the day.',
        price: 'from 15000',
      },
    ],
    booking: {
      instructions:
        'Send the service, preferred stylist (optional), day and time. We confirm by WhatsApp. Please come 5 minutes early; a delay over 15 minutes may need a new slot. Cancel at least 3 hours before.',
      advanceDays: 30,
      payment: ['Cash', 'UPI', 'Card'],
    },
    faq: [
      {
        q: 'Do you take walk-ins?',
        a: 'Yes, when a stylist is free; weekends are usually booked, so please book ahead.',
      },
      {
        q: 'Is there an advance for bridal bookings?',
        a: 'Yes, ₹3,000 advance to block the date, adjusted in the final bill.',
      },
    ],
  },
  prompt: `You are Meera, the booking assistant of Lavender Unisex Salon, Vazhuthacaud, Thiruvananthapuram.
Tone: friendly and upbeat, short sentences. Reply in the customer's language (Malayalam or English).
- Use only the services, prices, stylists, their slots and hours you are given; "from" prices depend on hair length, say so.
- To book, collect service, day, time and optionally a stylist, then say the salon will confirm on WhatsApp. We are closed on Mondays.
- No medical or skin-treatment advice beyond the listed services.
- Keep replies under 60 words.`,
  intents: {
    meta: { industry: 'salon' },
    runtime_policy: {
      confidence_policy: {
        rule_match_no_ai: 0.9,
        semantic_match_no_ai: 0.84,
        skip_llm_simple_template: true,
      },
    },
    intents: [
      {
        id: 'salon_hours',
        enabled: true,
        category: 'info',
        action: 'answer_hours',
        training_phrases: {
          en: [
            'what are your timings',
            'are you open on monday',
            'salon opening time',
            'what time do you open',
            'till what time are you open',
            'salon timings',
            'working hours',
            'are you open today',
          ],
          ml: ['സലൂൺ എപ്പോൾ തുറക്കും', 'തിങ്കളാഴ്ച തുറക്കുമോ', 'സമയം എന്താണ്', 'എത്ര മണി വരെ തുറന്നിരിക്കും', 'ഇന്ന് തുറന്നിട്ടുണ്ടോ'],
          'ml-Latn': [
            'salon eppol thurakkum',
            'timing enthanu',
            'ethra mani vare open aanu',
            'monday open aano',
            'innu open undo',
            'eppol adakkum',
          ],
        },
      },
      {
        id: 'haircut_price',
        enabled: true,
        category: 'pricing',
        action: 'answer_prices',
        training_phrases: {
          en: [
            'how much for a haircut',
            'price list',
            'hair colour charges',
            'facial rate',
            'what are your rates',
            'haircut price',
            'how much is keratin',
            'charges for bridal makeup',
          ],
          ml: ['ഹെയർകട്ടിന് എത്ര', 'റേറ്റ് ലിസ്റ്റ് അയക്കാമോ', 'ഹെയർ കളറിന് എത്ര രൂപ', 'ഫേഷ്യലിന് എത്ര', 'റേറ്റ് എത്രയാണ്'],
          'ml-Latn': [
            'haircutinu ethra',
            'rate list ayakkamo',
            'hair colourinu ethra roopa',
            'facial rate ethra',
            'rate ethrayanu',
            'keratininu ethra aakum',
          ],
        },
      },
      {
        id: 'book_slot',
        enabled: true,
        category: 'booking',
        action: 'start_booking',
        training_phrases: {
          en: [
            'book a haircut for saturday',
            'i want an appointment',
            'is there a slot today evening',
            'can i book a slot',
            'i want to book a facial',
            'book me for tomorrow',
            'appointment for hair colour',
          ],
          ml: ['ശനിയാഴ്ച ഹെയർകട്ട് ബുക്ക് ചെയ്യണം', 'അപ്പോയിന്റ്മെന്റ് വേണം', 'ഇന്ന് വൈകുന്നേരം സ്ലോട്ട് ഉണ്ടോ', 'ബുക്ക് ചെയ്യാമോ'],
          'ml-Latn': [
            'appointment venam',
            'slot undo',
            'naale book cheyyamo',
            'haircut book cheyyanam',
            'innu vaikunneram slot kittumo',
          ],
        },
        responses: {
          ml: 'ബുക്ക് ചെയ്യാം! സേവനം, ദിവസം, സമയം (വേണമെങ്കിൽ സ്റ്റൈലിസ്റ്റിന്റെ പേര്) അയക്കൂ; വാട്സ്ആപ്പിൽ സ്ഥിരീകരിക്കും.',
        },
      },
    ],
  },
};
