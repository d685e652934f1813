import type { ProfileTemplate } from './template.ts';

/** An online shop: stock list with SKUs, shipping, returns, cash on delivery. */
export const ecommerce: ProfileTemplate = {
  brain: {
    business: {
      name: 'Kerala Spice Box',
      tagline: 'Farm-fresh spices, tea and coffee from Idukki and Wayanad, shipped across India',
      profile: 'ecommerce',
      industry: 'online grocery (spices)',
      currency: 'INR',
      languages: ['English', 'Malayalam', 'Hindi'],
    },
    location: {
      address: 'Warehouse: Industrial Estate, Kattappana',
      city: 'Idukki',
      state: 'Kerala',
      country: 'India',
      postalCode: '685508',
    },
    contact: {
      phones: ['+91 80869 11122'],
      whatsapp: '+91 80869 11122',
      email: 'orders@keralaspicebox.example',
      website: 'https://keralaspicebox.example',
      hours: 'Orders online any time; customer support Monday to Saturday 10:00-18:00',
    },
    services: [
      { name: 'Standard shipping', description: 'Free above ₹799, else ₹60. 3-6 working days.', price: 60 },
      { name: 'Express shipping', description: 'Metro cities, 1-2 working days.', price: 150 },
      { name: 'Cash on delivery', description: 'Up to ₹3,000 per order.', price: 40 },
      { name: 'Gift box', description: 'Six spices in a wooden box with a printed note.', price: 1299 },
    ],
    booking: {
      instructions:
        'Order on the website or send the SKU and quantity here with your full address and pincode; we reply with a payment link. Orders placed before 14:00 ship the same day.',
      payment: ['UPI', 'Cards', 'Net banking', 'Cash on delivery up to ₹3,000'],
      url: 'https://keralaspicebox.example/shop',
    },
    stock: {
      items: [
        {
          sku: 'CARD-8MM-100',
          name: 'Green cardamom 8 mm bold, 100 g',
          price: 389,
          inStock: true,
          quantity: 240,
        },
        {
          sku: 'PEP-TGSEB-250',
          name: 'Tellicherry black pepper, 250 g',
          price: 299,
          inStock: true,
          quantity: 180,
        },
        { sku: 'CLOVE-50', name: 'Cloves, 50 g', price: 149, inStock: false, quantity: 0 },
        {
          sku: 'TEA-MUNNAR-500',
          name: 'Munnar high-range tea, 500 g',
          price: 345,
          inStock: true,
          quantity: 95,
        },
        {
          sku: 'COF-WYD-250',
          name: 'Wayanad robusta filter coffee, 250 g',
          price: 279,
          inStock: true,
          quantity: 60,
        },
      ],
      updatedAt: '2026-11-22T18:00:00+05:30',
    },
    faq: [
      {
        q: 'What is your return policy?',
        a: 'Unopened packs can be returned within 7 days of delivery; damaged or wrong items are replaced free - send a photo within 48 hours.',
      },
      {
        q: 'How do I track my order?',
        a: 'The tracking link is sent by SMS and email when the parcel ships; reply with your order number and we will check.',
      },
      { q: 'Do you ship abroad?', a: 'Not yet; we ship within India only.' },
    ],
    remote: { refreshMinutes: 30 },
  },
  prompt: `You are the order assistant of Kerala Spice Box, an online spice shop.
Tone: cheerful and concise. Reply in the customer's language (English, Malayalam or Hindi).
- Quote prices and availability only from the stock list; if an item is out of stock, say so and suggest an in-stock alternative from the list.
- To order, collect SKU or product, quantity, full address and pincode, then say a payment link will follow. Never ask for card numbers or OTPs.
- For a late or damaged order, ask for the order number (and a photo for damage) and promise a human follow-up within one working day.
- Keep replies under 70 words.`,
  intents: {
    meta: { industry: 'ecommerce' },
    runtime_policy: {
      confidence_policy: {
        rule_match_no_ai: 0.9,
        semantic_match_no_ai: 0.84,
        skip_llm_simple_template: true,
      },
    },
    intents: [
      {
        id: 'shipping_cost',
        enabled: true,
        category: 'shipping',
        action: 'answer_shipping',
        training_phrases: {
          en: [
            'how much is shipping',
            'is delivery free',
            'how many days for delivery',
            'shipping charges',
            'delivery time',
            'how long does shipping take',
          ],
          ml: ['ഷിപ്പിംഗ് ചാർജ് എത്ര', 'ഡെലിവറി എത്ര ദിവസം എടുക്കും', 'ഫ്രീ ഡെലിവറി ഉണ്ടോ'],
          'ml-Latn': [
            'shipping charge ethra',
            'delivery ethra divasam edukkum',
            'free delivery undo',
            'ethra divasam kondu kittum',
          ],
        },
        responses: {
          en: 'Standard shipping is free above ₹799 (else ₹60) and takes 3-6 working days; express to metro cities is ₹150, 1-2 days.',
          ml: '₹799-ന് മുകളിലുള്ള ഓർഡറുകൾക്ക് ഷിപ്പിംഗ് സൗജന്യം (അല്ലെങ്കിൽ ₹60), 3-6 പ്രവൃത്തി ദിവസം. മെട്രോ നഗരങ്ങളിലേക്ക് എക്സ്പ്രസ് ₹150, 1-2 ദിവസം.',
        },
      },
      {
        id: 'return_policy',
        enabled: true,
        category: 'returns',
        action: 'answer_returns',
        training_phrases: {
          en: [
            'can i return the product',
            'return policy',
            'i got a damaged pack',
            'how do returns work',
            'can i exchange it',
          ],
          ml: ['തിരിച്ചു നൽകാമോ', 'റിട്ടേൺ പോളിസി എന്താണ്', 'കേടായ പാക്കറ്റ് കിട്ടി'],
          'ml-Latn': [
            'return cheyyan pattumo',
            'return policy enthanu',
            'damaged packet kitti',
            'thirichu kodukkamo',
          ],
        },
        responses: {
          en: 'Unopened packs can be returned within 7 days. Damaged or wrong items are replaced free: send a photo and your order number within 48 hours.',
          ml: 'തുറക്കാത്ത പാക്കറ്റുകൾ 7 ദിവസത്തിനകം തിരികെ നൽകാം. കേടായതോ തെറ്റിയതോ ആയ സാധനങ്ങൾ സൗജന്യമായി മാറ്റി നൽകും: 48 മണിക്കൂറിനകം ഫോട്ടോയും ഓർഡർ നമ്പറും അയക്കൂ.',
        },
      },
      {
        id: 'stock_check',
        enabled: true,
        category: 'sales',
        action: 'answer_stock',
        training_phrases: {
          en: [
            'is cardamom available',
            'do you have cloves in stock',
            'price of black pepper',
            'do you have tea',
            'is coffee in stock',
          ],
          ml: ['ഏലക്ക സ്റ്റോക്ക് ഉണ്ടോ', 'കുരുമുളക് വില എത്ര', 'ഗ്രാമ്പൂ കിട്ടുമോ'],
          'ml-Latn': ['elakka stock undo', 'kurumulaku vila ethra', 'grambu kittumo'],
        },
      },
      {
        id: 'cod',
        enabled: true,
        category: 'payment',
        action: 'answer_payment',
        training_phrases: {
          en: [
            'is cash on delivery available',
            'can i pay on delivery',
            'payment options',
            'do you accept upi',
            'cod available',
          ],
          ml: ['ക്യാഷ് ഓൺ ഡെലിവറി ഉണ്ടോ', 'സാധനം കിട്ടുമ്പോൾ പണം നൽകാമോ'],
          'ml-Latn': ['cod undo', 'cash on delivery undo', 'gpay cheyyamo', 'payment engane aanu'],
        },
        responses: {
          en: 'Yes, cash on delivery is available up to ₹3,000 per order (₹40 extra). We also take UPI, cards and net banking.',
          ml: 'ഉണ്ട്, ₹3,000 വരെയുള്ള ഓർഡറുകൾക്ക് ക്യാഷ് ഓൺ ഡെലിവറി ലഭ്യമാണ് (₹40 അധികം). UPI, കാർഡ്, നെറ്റ് ബാങ്കിംഗ് എന്നിവയും സ്വീകരിക്കും.',
        },
      },
    ],
  },
};
