import type { ProfileTemplate } from './template.ts';

/** An appliance showroom and service centre: products, warranty periods, service visits. */
export const appliances: ProfileTemplate = {
  brain: {
    business: {
      name: 'Malabar Home Appliances',
      tagline: 'Sales and authorised service for washing machines, refrigerators, ACs and TVs',
      profile: 'appliances',
      industry: 'consumer electronics retail and service',
      description:
        'Showroom and service centre in Kozhikode. Authorised service partner for LG, Samsung and Whirlpool; technicians visit homes within 25 km.',
      currency: 'INR',
      languages: ['English', 'Malayalam'],
    },
    location: {
      address: 'Mavoor Road, near KSRTC bus stand',
      city: 'Kozhikode',
      state: 'Kerala',
      country: 'India',
      postalCode: '673004',
      mapUrl: 'https://maps.example.com/?q=Malabar+Home+Appliances+Mavoor+Road',
      landmarks: ['200 m from KSRTC bus stand', 'Above Federal Bank ATM'],
    },
    contact: {
      phones: ['+91 495 2720 555'],
      whatsapp: '+91 94470 55555',
      email: 'service@malabarhome.example',
      website: 'https://malabarhome.example',
      hours: {
        monday: { open: '09:30', close: '20:30' },
        tuesday: { open: '09:30', close: '20:30' },
        wednesday: { open: '09:30', close: '20:30' },
        thursday: { open: '09:30', close: '20:30' },
        friday: { open: '09:30', close: '20:30' },
        saturday: { open: '09:30', close: '20:30' },
        sunday: { open: '10:00', close: '14:00' },
      },
    },
    services: [
      {
        name: 'Service visit (in warranty)',
        description: 'Technician visit for a product under warranty.',
        price: 0,
        duration: '24-48 h to visit',
      },
      {
        name: 'Service visit (out of warranty)',
        description: 'Inspection charge; parts and labour quoted before work.',
        price: 350,
      },
      {
        name: 'AC installation',
        description: 'Split AC, up to 3 m copper pipe included.',
        price: 1500,
        duration: 120,
      },
      { name: 'AC gas refill', description: 'R32/R410A, with leak test.', price: 'from 2500' },
      {
        name: 'Washing machine installation',
        description: 'Free for machines bought here.',
        price: 0,
        duration: 45,
      },
    ],
    booking: {
      instructions:
        'For a service visit send: product, brand, model number, invoice date, the problem, your address and pincode. You get a complaint number by SMS; a technician calls before coming.',
      advanceDays: 7,
      payment: ['Cash', 'UPI', 'Card', 'EMI on purchases above ₹10,000'],
    },
    warranty: {
      terms:
        'Manufacturer warranty from the invoice date; keep the invoice. Physical damage, voltage damage and rust are not covered. Extended warranty can be bought within 90 days of purchase.',
      periods: [
        { product: 'Refrigerators', period: '1 year; 10 years on the compressor' },
        { product: 'Washing machines', period: '2 years; 10 years on the motor (inverter models)' },
        { product: 'Air conditioners', period: '1 year; 5 years on the compressor' },
        { product: 'Televisions', period: '1 year; 2 years on the panel for OLED' },
        { product: 'Extended warranty', period: '+2 years from ₹1,499' },
      ],
    },
    stock: {
      items: [
        {
          sku: 'LG-FH4G1',
          name: 'LG 8 kg front load washing machine',
          price: 36990,
          inStock: true,
          quantity: 6,
        },
        {
          sku: 'SAM-RT42',
          name: 'Samsung 415 L double door refrigerator',
          price: 48490,
          inStock: true,
          quantity: 3,
        },
        {
          sku: 'WH-1.5T-3S',
          name: 'Whirlpool 1.5 ton 3 star inverter split AC',
          price: 33990,
          inStock: false,
          quantity: 0,
        },
      ],
      updatedAt: '2026-11-20T09:00:00+05:30',
    },
    faq: [
      {
        q: 'Do you exchange old appliances?',
        a: 'Yes, exchange offers on washing machines, refrigerators and ACs; value after inspection.',
      },
      { q: 'Is delivery free?', a: 'Free delivery within Kozhikode corporation; ₹300 beyond, up to 40 km.' },
    ],
  },
  prompt: `You are the WhatsApp assistant of Malabar Home Appliances, Kozhikode.
Tone: friendly, practical, short. Reply in the customer's language (Malayalam or English).
- Use only the products, prices, stock, warranty periods and service charges you are given. Prices can change: say "current price" and offer to confirm.
- For a repair, collect product, brand, model, invoice date, the problem, address and pincode, then say a complaint number will follow by SMS.
- Never promise a same-day visit or a free repair outside warranty.
- Keep replies under 80 words.`,
  intents: {
    meta: { industry: 'appliances' },
    runtime_policy: {
      confidence_policy: {
        rule_match_no_ai: 0.9,
        semantic_match_no_ai: 0.84,
        skip_llm_simple_template: true,
      },
    },
    intents: [
      {
        id: 'store_hours',
        enabled: true,
        category: 'info',
        action: 'answer_hours',
        training_phrases: {
          en: [
            'what time does the showroom open',
            'shop timings',
            'are you open on sunday',
            'showroom timings',
            'till what time are you open',
            'working hours',
            'when do you close',
          ],
          ml: ['ഷോറൂം എപ്പോൾ തുറക്കും', 'കട എത്ര മണി വരെ', 'ഞായറാഴ്ച തുറക്കുമോ', 'ഷോറൂം സമയം'],
          'ml-Latn': [
            'showroom eppol thurakkum',
            'shop timing enthanu',
            'sunday open aano',
            'ethra mani vare undu',
            'kada eppol adakkum',
          ],
        },
      },
      {
        id: 'warranty_period',
        enabled: true,
        category: 'warranty',
        action: 'answer_warranty',
        training_phrases: {
          en: [
            'how long is the warranty',
            'warranty on the compressor',
            'extended warranty price',
            'what is the warranty period',
            'warranty details',
            'how many years warranty',
          ],
          ml: ['വാറന്റി എത്ര വർഷം', 'കംപ്രസ്സറിന് വാറന്റി ഉണ്ടോ', 'എക്സ്റ്റൻഡഡ് വാറന്റി എത്ര'],
          'ml-Latn': [
            'warranty ethra varsham',
            'compressorinu warranty undo',
            'warranty ethra kollam',
            'extended warranty ethra',
          ],
        },
      },
      {
        id: 'service_request',
        enabled: true,
        category: 'service',
        action: 'start_service_request',
        training_phrases: {
          en: [
            'my washing machine is not working',
            'need a technician',
            'ac not cooling',
            'register a complaint',
            'fridge is not cooling',
            'tv not turning on',
            'book a service',
            'need repair',
          ],
          ml: ['വാഷിംഗ് മെഷീൻ പ്രവർത്തിക്കുന്നില്ല', 'ടെക്നീഷ്യനെ വേണം', 'എസി തണുക്കുന്നില്ല', 'കംപ്ലൈന്റ് രജിസ്റ്റർ ചെയ്യണം'],
          'ml-Latn': [
            'washing machine work aakunnilla',
            'technicianine venam',
            'ac cooling illa',
            'complaint register cheyyanam',
            'fridge thanukkunnilla',
            'service venam',
          ],
        },
        responses: {
          en: 'Sorry about that. Please send the product, brand, model number, invoice date, the problem, your address and pincode. You will get a complaint number by SMS.',
          ml: 'ക്ഷമിക്കണം. ഉൽപ്പന്നം, ബ്രാൻഡ്, മോഡൽ നമ്പർ, ബിൽ തീയതി, പ്രശ്നം, വിലാസം, പിൻകോഡ് എന്നിവ അയക്കൂ. കംപ്ലൈന്റ് നമ്പർ SMS ആയി വരും.',
        },
      },
      {
        id: 'delivery',
        enabled: true,
        category: 'sales',
        action: 'answer_delivery',
        training_phrases: {
          en: [
            'is delivery free',
            'do you deliver to my home',
            'delivery charges',
            'home delivery available',
            'how much for delivery',
            'will you deliver',
          ],
          ml: ['ഡെലിവറി ഫ്രീ ആണോ', 'വീട്ടിൽ എത്തിച്ചു തരുമോ', 'ഡെലിവറി ചാർജ് എത്ര'],
          'ml-Latn': [
            'delivery free aano',
            'veettil ethichu tharumo',
            'delivery charge ethra',
            'home delivery undo',
          ],
        },
        responses: {
          en: 'Delivery is free within Kozhikode corporation and ₹300 beyond, up to 40 km.',
          ml: 'കോഴിക്കോട് കോർപ്പറേഷൻ പരിധിയിൽ ഡെലിവറി സൗജന്യം; അതിനപ്പുറം 40 കി.മീ. വരെ ₹300.',
        },
      },
    ],
  },
};
